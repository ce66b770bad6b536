/** Entry of the offscreen document: the SDK host (SPEC A2). */
import './zod-config.js';
import { startOffscreenHost } from './host.js';
import { startImportChannel } from './import-channel.js';

startOffscreenHost();
startImportChannel();
