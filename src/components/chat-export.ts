/** A chat as Markdown for export (section P): who said what, each tool step with its arguments and result. */
import type { ChatEntry, ChatView } from '../protocol/panel-chat.js';

const fence = (text: string) => {
  const ticks = '`'.repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return `${ticks}\n${text}\n${ticks}`;
};

/** One message as the user copies it (T5): the assistant's Markdown as written, the user's words with what they attached. */
export function messageAsMarkdown(e: Extract<ChatEntry, { kind: 'user' | 'assistant' }>): string {
  return e.kind === 'user' ? [e.text, ...e.blocks.map((b) => `> Attached: ${b.label}`)].join('\n\n') : e.text;
}

export function chatAsMarkdown(chat: ChatView): string {
  const out = [`# ${chat.title || 'Chat'}`, ''];
  if (chat.provider) out.push(`Model: ${chat.provider.model} (${chat.provider.host})`, '');
  for (const e of chat.entries) {
    if (e.kind === 'user') out.push('## User', '', messageAsMarkdown(e), '');
    else if (e.kind === 'assistant') out.push('## Assistant', '', e.text, '');
    else if (e.kind === 'tool')
      out.push(
        `### Tool ${e.toolName ?? e.name}${e.serverName ? ` on ${e.serverName}` : ''} (${e.status}${e.durationMs !== undefined ? `, ${e.durationMs} ms` : ''})`,
        '',
        'Arguments:',
        fence(e.arguments),
        ...(e.result !== undefined ? ['Result:', fence(e.result)] : []),
        '',
      );
    else if (e.kind === 'error') out.push(`> Error: ${e.message}`, '');
    else if (e.kind === 'notice') out.push(`> ${e.notice}`, '');
    else if (e.kind === 'tools-loaded') out.push(`> Tool search for "${e.query}" loaded: ${e.tools.join(', ') || 'none'}`, '');
    else out.push(`> Tool search on (${e.reason}: ${e.offered} tools, limit ${e.limit})`, '');
  }
  return out.join('\n');
}
