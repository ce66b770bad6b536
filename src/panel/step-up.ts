/**
 * The panel's "Grant more access" offer (SPEC E7, H3). Shown under the tool runner when a call
 * the user started was refused with 403 `insufficient_scope`; its click asks the worker to run
 * the interactive step-up (`panel:step-up`, which may open the authorization window — hence only
 * from a click). The refused call is not re-sent: the user runs it again once access is granted.
 * The worker's explanation of the refusal is the runner's error, right above: the offer adds only
 * its button, and then what the step-up did.
 */
import { el } from '../components/dom.js';
import { t } from '../components/i18n.js';
import type { Call } from './call.js';

export interface StepUpOffer {
  /** Offer a step-up for this refused call (the runner already shows why it was refused). */
  offer(serverId: string, tool: string): void;
  /** A new run started: the old offer no longer applies. */
  clear(): void;
}

export function setUpStepUp(deps: { call: Call; after: Element }): StepUpOffer {
  const text = el('p', { class: 'error step-up-text' });
  const button = el('button', { type: 'button', 'data-action': 'grant-more-access' }, t('grantMoreAccess'));
  const box = el('div', { id: 'step-up', role: 'status', hidden: true }, text, button);
  deps.after.after(box);
  let target: { serverId: string; tool: string } | undefined;

  button.addEventListener('click', () => {
    if (!target) return;
    const { serverId, tool } = target;
    button.disabled = true;
    text.className = 'muted step-up-text';
    text.textContent = t('grantingMoreAccess');
    void deps.call('panel:step-up', { serverId, tool }).then((r) => {
      if (target?.serverId !== serverId || target.tool !== tool) return;
      if (r.ok) {
        text.className = 'step-up-text granted';
        text.textContent = t('moreAccessGranted');
        button.hidden = true;
        return;
      }
      text.className = 'error step-up-text';
      text.textContent = r.message;
      // Over the limit for this call (N5): offering the button again would only loop.
      button.hidden = r.code === 'step-up-limit';
      button.disabled = false;
    });
  });

  return {
    offer(serverId, tool) {
      target = { serverId, tool };
      text.className = 'step-up-text';
      text.textContent = '';
      button.hidden = false;
      button.disabled = false;
      box.hidden = false;
    },
    clear() {
      target = undefined;
      box.hidden = true;
    },
  };
}
