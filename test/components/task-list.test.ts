/**
 * A server's task list in its detail (SPEC R6): state in words, the server's status message and
 * result as text (never markup), elapsed time, Cancel while running, Clear for ended tasks, and
 * the section hidden for a server that never ran a task.
 */
import { expect, fixture, html } from '@open-wc/testing';
import './setup.js';
import type { McpServerDetailElement } from '../../src/components/mcp-server-detail.js';
import { CancelToolEvent, ClearTasksEvent } from '../../src/components/events.js';
import { elapsedText } from '../../src/components/mcp-task-list.js';
import type { TaskView } from '../../src/protocol/tasks.js';
import { serverView } from './server-view.js';

const now = Date.now();
const running: TaskView = {
  operationId: 'op-run',
  serverId: 's1',
  tool: 'simulate-research-query',
  taskId: 't-1',
  state: 'working',
  message: '<b>Gathering</b> sources...',
  startedAt: now - 65_000,
};
const done: TaskView = {
  operationId: 'op-done',
  serverId: 's1',
  tool: 'simulate-research-query',
  state: 'completed',
  startedAt: now - 10_000,
  endedAt: now - 6_000,
  preview: '# Research Report <img src=x onerror=alert(1)>',
};
const elsewhere: TaskView = { ...done, operationId: 'op-other', serverId: 's2' };

async function detail(tasks: TaskView[]) {
  const el = await fixture<McpServerDetailElement>(html`<mcp-server-detail></mcp-server-detail>`);
  el.server = serverView({ id: 's1', name: 'Everything' });
  el.tasks = tasks;
  await el.updateComplete;
  const section = el.shadowRoot!.querySelector<HTMLDetailsElement>('details[data-section="tasks"]')!;
  const list = section.querySelector('mcp-task-list')!;
  return { el, section, root: list.shadowRoot! };
}

describe('mcp-task-list', () => {
  it('lists this server’s tasks, newest first, with state, message, elapsed time and result as text', async () => {
    const { section, root } = await detail([running, done, elsewhere]);
    expect(section.hidden).to.equal(false);
    expect(section.querySelector('summary')!.textContent).to.equal('Tasks (2)');
    const rows = [...root.querySelectorAll('li')];
    expect(rows.map((r) => r.dataset.operation)).to.deep.equal(['op-done', 'op-run']);
    expect(rows[1]!.querySelector('.state')!.textContent).to.equal('Working');
    expect(rows[1]!.querySelector('.message')!.textContent).to.equal('<b>Gathering</b> sources...');
    expect(rows[1]!.querySelector('.elapsed')!.textContent).to.equal('1 min 5 s');
    expect(rows[0]!.querySelector('.state')!.textContent).to.equal('Completed');
    expect(rows[0]!.querySelector('.elapsed')!.textContent).to.equal('4 s');
    expect(rows[0]!.querySelector('pre')!.textContent).to.equal('# Research Report <img src=x onerror=alert(1)>');
    expect(root.querySelector('img, b')).to.equal(null, 'server text is never markup');
    expect(rows[0]!.querySelector('button')).to.equal(null, 'an ended task has no Cancel');
    await expect(root.host.parentElement!).to.be.accessible();
  });

  it('Cancel sends the task’s call; Clear sends the server', async () => {
    const { root } = await detail([running, done]);
    const seen: string[] = [];
    document.addEventListener(CancelToolEvent.type, (e) => seen.push(`cancel ${e.serverId} ${e.operationId}`), { once: true });
    document.addEventListener(ClearTasksEvent.type, (e) => seen.push(`clear ${e.serverId}`), { once: true });
    const cancel = root.querySelector<HTMLButtonElement>('li[data-operation="op-run"] button')!;
    expect(cancel.getAttribute('aria-label')).to.equal('Cancel the task simulate-research-query');
    cancel.click();
    expect(cancel.disabled).to.equal(true, 'one click, one cancel');
    root.querySelector<HTMLButtonElement>('button.clear')!.click();
    expect(seen).to.deep.equal(['cancel s1 op-run', 'clear s1']);
  });

  it('a tool error and a failure are said as such; Clear is hidden while nothing ended', async () => {
    const failed: TaskView = { ...running, operationId: 'op-f', state: 'failed', endedAt: now, message: 'The task failed: disk full' };
    const toolError: TaskView = { ...done, operationId: 'op-e', isError: true };
    const { root } = await detail([failed, toolError]);
    expect(root.querySelector('li[data-operation="op-f"] .state')!.textContent).to.equal('Failed');
    expect(root.querySelector('li[data-operation="op-f"] .message')!.textContent).to.equal('The task failed: disk full');
    expect(root.querySelector('li[data-operation="op-e"] .state')!.textContent).to.equal('Completed with a tool error');
    const only = await detail([running]);
    expect(only.root.querySelector<HTMLButtonElement>('button.clear')!.hidden).to.equal(true);
  });

  it('no section for a server that never ran a task', async () => {
    const { section } = await detail([elsewhere]);
    expect(section.hidden).to.equal(true);
  });

  it('elapsed time reads in seconds, then minutes and seconds', () => {
    expect(elapsedText(999)).to.equal('0 s');
    expect(elapsedText(59_999)).to.equal('59 s');
    expect(elapsedText(125_000)).to.equal('2 min 5 s');
  });
});
