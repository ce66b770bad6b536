/**
 * Chrome's built-in model (Prompt API) through an object with the API's exact surface:
 * `LanguageModel.availability()`, `LanguageModel.create({ initialPrompts, signal })`,
 * `session.promptStreaming(input, { signal })` (a ReadableStream of text pieces) and
 * `session.destroy()`. No Chromium here has the model, so this is where the adapter is driven.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  builtinAvailable,
  builtinPrompts,
  languageModelOf,
  streamBuiltin,
  type LanguageModelLike,
} from '../../../../src/sw/chat/providers/builtin.js';
import { ProviderError, type TurnRequest } from '../../../../src/sw/chat/providers/types.js';
import { runChat, type RunDeps } from '../../../../src/sw/chat/run-loop.js';
import type { ChatView } from '../../../../src/protocol/panel-chat.js';

function fakeModel(availability: string, pieces: string[], options: { hang?: boolean } = {}) {
  const seen: { created: unknown[]; prompts: string[]; destroyed: number } = { created: [], prompts: [], destroyed: 0 };
  const model: LanguageModelLike = {
    availability: async () => availability,
    create: async (o) => {
      seen.created.push(o.initialPrompts);
      return {
        promptStreaming(input) {
          seen.prompts.push(input);
          let i = 0;
          return new ReadableStream<string>({
            pull(controller) {
              if (i < pieces.length) controller.enqueue(pieces[i++]);
              else if (options.hang)
                return new Promise<void>(() => undefined); // never answers, even to the signal
              else controller.close();
              return undefined;
            },
          });
        },
        destroy: () => void seen.destroyed++,
      };
    },
  };
  return { model, seen };
}

const request: TurnRequest = {
  system: 'SYS',
  turns: [
    { role: 'user', text: 'first' },
    { role: 'assistant', text: 'answer one', toolCalls: [] },
    { role: 'user', text: 'second' },
  ],
  tools: [],
};

test('feature detection: no LanguageModel global, or availability "unavailable", means not offered', async () => {
  assert.equal(languageModelOf({}), undefined);
  assert.equal(await builtinAvailable(undefined), false);
  assert.equal(await builtinAvailable(fakeModel('unavailable', []).model), false);
  assert.equal(await builtinAvailable(fakeModel('downloadable', []).model), true);
  assert.equal(await builtinAvailable(fakeModel('available', []).model), true);
  const { model } = fakeModel('available', []);
  assert.equal(languageModelOf({ LanguageModel: model }), model);
  const throwing: LanguageModelLike = { availability: () => Promise.reject(new Error('x')), create: () => Promise.reject(new Error('x')) };
  assert.equal(await builtinAvailable(throwing), false);
});

test('the conversation becomes initialPrompts, the last user message is the prompt, pieces stream as text', async () => {
  assert.deepEqual(builtinPrompts(request), {
    initialPrompts: [
      { role: 'system', content: 'SYS' },
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'answer one' },
    ],
    prompt: 'second',
  });
  const { model, seen } = fakeModel('available', ['Hel', 'lo']);
  const pieces: string[] = [];
  const turn = await streamBuiltin(model, request, { onText: (d) => pieces.push(d) });
  assert.deepEqual(pieces, ['Hel', 'lo']);
  assert.deepEqual(turn, { text: 'Hello', toolCalls: [], usage: {}, stopReason: 'stop' });
  assert.deepEqual(seen.prompts, ['second']);
  assert.equal(seen.destroyed, 1);
});

test('Stop aborts the stream (cancelled) and the session is destroyed; an unavailable model is a plain-words error', async () => {
  const { model, seen } = fakeModel('available', ['Partial'], { hang: true });
  const controller = new AbortController();
  const turn = streamBuiltin(model, request, { onText: () => controller.abort() }, controller.signal);
  await assert.rejects(turn, (e: ProviderError) => e.kind === 'cancelled');
  assert.equal(seen.destroyed, 1);
  await assert.rejects(
    streamBuiltin(fakeModel('unavailable', []).model, request, { onText: () => undefined }),
    (e: ProviderError) => e.kind === 'model-not-found' && /not available/.test(e.message),
  );
});

test('a run with the built-in model sends no tools and says so in the chat', async () => {
  const { model } = fakeModel('available', ['Sure.']);
  const sent: TurnRequest[] = [];
  const chat: ChatView = {
    id: 'c',
    title: '',
    createdAt: 0,
    updatedAt: 0,
    disabledTools: [],
    status: 'idle',
    entries: [{ kind: 'user', id: 'u', text: 'hi', blocks: [] }],
  };
  let n = 0;
  const deps: RunDeps = {
    stream: (r, hooks, signal) => {
      sent.push(r);
      return streamBuiltin(model, r, hooks, signal);
    },
    tools: () => {
      throw new Error('tools are not asked for');
    },
    call: () => Promise.reject(new Error('no calls')),
    save: async () => undefined,
    changed: () => undefined,
    text: () => undefined,
    newId: () => `id${n++}`,
    now: () => 0,
    maxSteps: 20,
    withoutTools: true,
  };
  await runChat(chat, deps, new AbortController().signal);
  assert.deepEqual(sent[0]!.tools, []);
  assert.deepEqual(
    chat.entries.map((e) => (e.kind === 'notice' ? `notice:${e.notice}` : e.kind)),
    ['user', 'notice:no-tools', 'assistant'],
  );
  const last = chat.entries.at(-1)!;
  assert.equal(last.kind === 'assistant' && last.text, 'Sure.');
});
