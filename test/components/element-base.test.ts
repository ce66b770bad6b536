/** The shared base of the panel elements: batched updates and typed, vetoable events. */
import { expect } from '@open-wc/testing';
import { ElementBase } from '../../src/components/element-base.js';
import { ServerActionEvent, ToolToggleEvent } from '../../src/components/events.js';

class Probe extends ElementBase {
  updates = 0;
  changes: string[][] = [];
  parts: ElementBase[] = [];
  protected override update(changed: ReadonlySet<string>) {
    this.updates++;
    this.changes.push([...changed]);
  }
  protected override updateParts() {
    return this.parts;
  }
  ask(key?: string) {
    this.requestUpdate(key);
  }
  send(event: ServerActionEvent | ToolToggleEvent) {
    return this.emit(event);
  }
}
Probe.define('test-element-base-probe');

describe('ElementBase', () => {
  it('runs update once for two requestUpdate calls in the same task, and again for a later one', async () => {
    const probe = new Probe();
    probe.ask();
    probe.ask();
    expect(probe.updates).to.equal(0);
    await Promise.resolve();
    expect(probe.updates).to.equal(1);
    probe.ask();
    await Promise.resolve();
    expect(probe.updates).to.equal(2);
  });

  it('passes the keys named since the last update, and starts afresh after it', async () => {
    const probe = new Probe();
    probe.ask('a');
    probe.ask('b');
    probe.ask('a');
    await probe.updateComplete;
    probe.ask();
    await probe.updateComplete;
    probe.ask('c');
    await probe.updateComplete;
    expect(probe.changes).to.deep.equal([['a', 'b'], [], ['c']]);
  });

  it('updateComplete resolves after the pending update and those of its parts, and at once when none is pending', async () => {
    const probe = new Probe();
    const part = new Probe();
    probe.parts = [part];
    probe.ask();
    part.ask();
    expect([probe.updates, part.updates]).to.deep.equal([0, 0]);
    await probe.updateComplete;
    expect([probe.updates, part.updates]).to.deep.equal([1, 1]);
    await probe.updateComplete;
    expect([probe.updates, part.updates]).to.deep.equal([1, 1]);
  });

  it('emit returns false when a listener prevents a cancelable event, true otherwise', () => {
    const probe = new Probe();
    document.body.append(probe);
    const veto = (e: Event) => e.preventDefault();
    document.addEventListener(ServerActionEvent.type, veto);
    try {
      expect(probe.send(new ServerActionEvent('demo', 'delete'))).to.equal(false);
    } finally {
      document.removeEventListener(ServerActionEvent.type, veto);
    }
    expect(probe.send(new ServerActionEvent('demo', 'delete'))).to.equal(true);
    // Not cancelable: preventDefault has no effect.
    const ignored = (e: Event) => e.preventDefault();
    document.addEventListener(ToolToggleEvent.type, ignored);
    expect(probe.send(new ToolToggleEvent('demo', 'echo', true))).to.equal(true);
    document.removeEventListener(ToolToggleEvent.type, ignored);
    probe.remove();
  });
});
