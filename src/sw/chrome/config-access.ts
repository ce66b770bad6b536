/**
 * The worker's one ConfigStore over `chrome.storage.local` (SPEC B1): all writes from the worker
 * go through its queue, so two panel actions racing never lose one another; invalid entries are
 * reported and carried through writes untouched.
 */
import { ConfigStore } from '../../storage/config-store.js';
import { chromeArea } from '../../storage/ports.js';

export const configStore = new ConfigStore(chromeArea(chrome.storage.local));
