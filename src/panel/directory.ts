/**
 * Wires "Add from directory" (SPEC S1) to the worker. Opening the view reads which registry is
 * set (no network); Search and Load more ask Chrome for the registry's origin synchronously
 * inside their click (SPEC L1), then have the worker fetch the page; choosing an endpoint fills
 * the guided add and shows it, whose Continue runs the usual probe and authorization.
 */
import { DirectoryChooseEvent, DirectorySearchEvent, DirectorySetRegistryEvent, NavigateEvent } from '../components/events.js';
import { t } from '../components/i18n.js';
import type { McpDirectoryElement } from '../components/mcp-directory.js';
import type { McpAddServerElement } from '../components/mcp-add-server.js';
import { originPattern } from '../common/url-rules.js';
import type { Call } from './call.js';

export interface DirectoryDeps {
  call: Call;
  directory: McpDirectoryElement;
  addForm: McpAddServerElement;
}

async function loadSettings({ call, directory }: DirectoryDeps) {
  const r = await call('panel:directory-settings', {});
  if (r.ok) directory.settings = r.value;
  return r.ok;
}

function wireSearch(deps: DirectoryDeps) {
  const { call, directory } = deps;
  document.addEventListener(DirectorySearchEvent.type, (e) => {
    const registryUrl = directory.settings?.registryUrl;
    const permission = registryUrl
      ? chrome.permissions.request({ origins: [originPattern(registryUrl)] }).catch(() => false)
      : loadSettings(deps); // Not read yet: the worker then says plainly if the origin is missing.
    void (async () => {
      if (!(await permission) && registryUrl) return directory.showError(t('directoryDenied', new URL(registryUrl).origin));
      directory.showSearching();
      const r = await call('panel:directory-search', e.detail);
      if (r.ok) directory.showPage(r.value);
      else directory.showError(t('directoryFailed', r.message));
    })();
  });
}

export function setUpDirectory(deps: DirectoryDeps) {
  const { call, directory, addForm } = deps;
  document.addEventListener(NavigateEvent.type, (e) => {
    if (e.to.view === 'directory') void loadSettings(deps);
  });
  wireSearch(deps);
  document.addEventListener(DirectorySetRegistryEvent.type, (e) => {
    void call('panel:directory-set-registry', { registryUrl: e.registryUrl }).then((r) => directory.showRegistrySaved(r));
  });
  document.addEventListener(DirectoryChooseEvent.type, (e) => {
    const { entry, remote } = e.detail;
    addForm.prefill({ name: entry.title ?? entry.name, url: remote.url, headers: remote.headers });
    directory.dispatchEvent(new NavigateEvent({ view: 'add' }));
  });
}
