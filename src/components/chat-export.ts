/** A chat as Markdown for export (section P): who said what, each tool step with its arguments and result. */
import type { ChatView } from '../protocol/panel-chat.js';

const fence = (text: string) => {
  const ticks = '`'.repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return `${ticks}\n${text}\n${ticks}`;
};

export function chatAsMarkdown(chat: ChatView): string {
  const out = [`# ${chat.title || 'Chat'}`, ''];
  if (chat.provider) out.push(`Model: ${chat.provider.model} (${chat.provider.host})`, '');
  for (const e of chat.entries) {
    if (e.kind === 'user') out.push('## User', '', e.text, ...e.blocks.map((b) => `\n> Attached: ${b.label}`), '');
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
