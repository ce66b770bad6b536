/**
 * Per-view-session grants (U1): "Allow this view to call <tool> while it is open". A grant names
 * the view session (an id the panel makes for each mounted view, never seen by the view), the
 * server and the tool as it was when granted (its fingerprint: a reworded tool asks again). It
 * ends when the panel says the view closed; a panel that closes without saying so leaves grants
 * no later view can name (a new mount has a new id), bounded to {@link MAX_VIEW_SESSIONS}.
 *
 * Kept in `chrome.storage.session`, so a worker stop while the view stays open does not make the
 * view ask again; the session area is cleared when the browser closes.
 */
import type { StorageAreaLike } from './approval-store.js';

export const VIEW_GRANTS_KEY = 'mcp_view_grants';
/** More open view sessions than this are not kept: the oldest grants go first. */
const MAX_VIEW_SESSIONS = 64;

interface SessionGrants {
  serverId: string;
  /** Tool name → fingerprint when granted. */
  tools: Record<string, string>;
  grantedAt: number;
}

function isSession(v: unknown): v is SessionGrants {
  const s = v as Partial<SessionGrants> | null;
  return !!s && typeof s.serverId === 'string' && typeof s.grantedAt === 'number' && !!s.tools && typeof s.tools === 'object';
}

export class ViewGrants {
  #sessions: Map<string, SessionGrants> | undefined;
  /** Writes are serialized, so two grants in quick succession cannot overwrite each other. */
  #tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly area: StorageAreaLike,
    private readonly now: () => number = Date.now,
  ) {}

  async #load(): Promise<Map<string, SessionGrants>> {
    if (this.#sessions) return this.#sessions;
    const raw = (await this.area.get(VIEW_GRANTS_KEY).catch((): Record<string, unknown> => ({})))[VIEW_GRANTS_KEY];
    const sessions = new Map<string, SessionGrants>();
    if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
      for (const [id, s] of Object.entries(raw)) if (isSession(s)) sessions.set(id, s);
    }
    return (this.#sessions ??= sessions);
  }

  #write(change: (sessions: Map<string, SessionGrants>) => boolean): Promise<void> {
    const run = this.#tail.then(async () => {
      const sessions = await this.#load();
      if (!change(sessions)) return;
      await this.area.set({ [VIEW_GRANTS_KEY]: Object.fromEntries(sessions) });
    });
    this.#tail = run.catch(() => undefined);
    return run;
  }

  /** Whether the open view `viewSession` of `serverId` may call the tool as it is now. */
  async allows(viewSession: string, serverId: string, tool: string, fingerprint: string): Promise<boolean> {
    await this.#tail;
    const s = (await this.#load()).get(viewSession);
    return !!s && s.serverId === serverId && Object.hasOwn(s.tools, tool) && s.tools[tool] === fingerprint;
  }

  grant(viewSession: string, serverId: string, tool: string, fingerprint: string): Promise<void> {
    return this.#write((sessions) => {
      const s = sessions.get(viewSession);
      // A session id names one view of one server: a grant never spans servers.
      if (s && s.serverId !== serverId) return false;
      const next = s ?? { serverId, tools: {}, grantedAt: this.now() };
      next.tools = { ...next.tools, [tool]: fingerprint };
      sessions.delete(viewSession);
      sessions.set(viewSession, next);
      while (sessions.size > MAX_VIEW_SESSIONS) sessions.delete(sessions.keys().next().value!);
      return true;
    });
  }

  /** The view closed: its grants end. */
  end(viewSession: string): Promise<void> {
    return this.#write((sessions) => sessions.delete(viewSession));
  }
}
