/** The shared base of the panel elements: batched updates and typed, vetoable events. */
import { expect } from '@open-wc/testing';
import { ElementBase } from '../../src/components/element-base.js';
import { ServerActionEvent, ToolToggleEvent } from '../../src/components/events.js';

class Probe extends ElementBase {
  updates = 0;
  protected override update() {
    this.updates++;
  }
  ask() {
    this.requestUpdate();
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
