/**
 * The store listing's texts, in every language the extension ships, from one source: the name
 * and summary are the extension's own catalog entries (`extName`, `extDescription`, which the
 * manifest shows too); the rest is written here. `npm run package` renders them into the
 * release folder, and PRIVACY.md is rendered from the same privacy statement (a unit test keeps
 * it in step). Every install-time and optional permission of the manifest needs a justification
 * in every language (also checked).
 */
import { en } from '../../src/i18n/en.js';
import { zh_CN } from '../../src/i18n/zh_CN.js';

export interface PrivacySection {
  heading: string;
  items: string[];
}

export interface StoreListing {
  name: string;
  /** Chrome Web Store summary: at most 132 characters. */
  summary: string;
  description: string[];
  singlePurpose: string;
  /** Keyed by the manifest's permission or host pattern. */
  permissions: Record<string, string>;
  privacy: { title: string; intro: string; sections: PrivacySection[] };
}

const HOSTS_EN =
  'Requested one origin at a time, only when the user clicks to add a server, authorize it or save a chat provider: the extension sends MCP requests to the servers the user added, OAuth requests to the authorization servers those servers name, and chat requests to the provider the user configured. There is no access to any site until the user grants it.';
const HOSTS_ZH =
  '仅在用户点击添加服务器、授权或保存聊天服务商时，按单个来源申请：扩展只向用户添加的服务器发送 MCP 请求，向这些服务器指定的授权服务器发送 OAuth 请求，向用户配置的服务商发送聊天请求。未经用户授予，不访问任何网站。';
const LOOPBACK_EN =
  'The same, for servers and model runtimes the user runs on this computer (127.0.0.1, localhost, [::1]): plain HTTP is accepted only for these loopback addresses.';
const LOOPBACK_ZH = '同上，用于用户在本机运行的服务器和模型（127.0.0.1、localhost、[::1]）：仅这些本机地址允许使用 HTTP。';

const english: StoreListing = {
  name: en.extName.message,
  summary: en.extDescription.message,
  description: [
    'Remote MCP for Chrome lets you use remote Model Context Protocol (MCP) servers — over Streamable HTTP — from Chrome’s side panel. Nothing to install besides the extension.',
    'Add a server by URL or paste the JSON config of another MCP client; authorize it with a bearer token or OAuth 2.1 (discovery, PKCE, refresh, step-up); choose which tools are on; watch each server’s health; answer the server’s questions; run tools, prompts and resources by hand; and chat with your own model provider (OpenAI-compatible or Anthropic), which can use your servers’ tools — every call asks for your approval first.',
    'Interactive MCP App views render in a sandbox with no access to the extension, your cookies or other sites.',
    'Secrets are sealed at rest with a key that never leaves the browser; OAuth access tokens live only in session storage; no cookies are ever sent to your servers. The extension has no servers of its own and collects nothing.',
  ],
  singlePurpose:
    'Connect Chrome to remote MCP servers the user chooses, and let the user (and a chat with the user’s own model provider) use their tools, prompts and resources from the side panel.',
  permissions: {
    storage: 'Keeps the user’s server list, settings, approvals and sealed credentials on this computer.',
    sidePanel: 'The whole user interface lives in Chrome’s side panel.',
    offscreen: 'MCP connections (long-lived HTTP streams) run in an offscreen document so they survive the service worker’s idle stops.',
    identity: 'Runs the OAuth 2.1 sign-in window (chrome.identity.launchWebAuthFlow) when a server requires authorization.',
    'https://*/*': HOSTS_EN,
    'http://127.0.0.1/*': LOOPBACK_EN,
    'http://localhost/*': LOOPBACK_EN,
    'http://[::1]/*': LOOPBACK_EN,
  },
  privacy: {
    title: 'Privacy',
    intro:
      'Remote MCP for Chrome has no servers of its own. It collects no analytics, no telemetry and no usage data, and sends nothing to its authors.',
    sections: [
      {
        heading: 'What is stored, and where (on this computer only)',
        items: [
          'Your server list (names, URLs, settings, tool choices) and "always allow" approvals: Chrome’s extension storage (`chrome.storage.local`).',
          'Bearer tokens, refresh tokens, client secrets, header values and chat provider API keys: the same storage, sealed with AES-GCM under a key that is generated in the browser and cannot be exported.',
          'OAuth access tokens: session storage only (`chrome.storage.session`), gone when the browser closes.',
          'Chats (the last 100), the request log, and open questions from servers: the extension’s IndexedDB. The request log is redacted before it is stored.',
          'Removing a server deletes its credentials, approvals and log entries. Uninstalling the extension deletes everything.',
        ],
      },
      {
        heading: 'What leaves this computer, and to whom',
        items: [
          'To each MCP server you add: the MCP requests you or your chat make (tool arguments, prompt and resource requests) and the credential you gave for that server. Never your browser cookies.',
          'To the authorization servers your MCP servers name: the OAuth requests needed to sign in (registration, authorization, token and revocation requests).',
          'To the MCP Registry you search with "Add from directory" (the official one unless you set another), only when you search: the search text. Never your browser cookies.',
          'To the model provider you configure for the chat: your messages, the tool definitions you let the model see, and tool results, with your API key for that provider.',
          'Nothing goes to the extension’s authors or to anyone else.',
        ],
      },
      {
        heading: 'Your control',
        items: [
          'Each site is reached only after you grant its origin from a click. You can export your configuration without secrets, clear the request log, delete chats, and remove any server at any time.',
        ],
      },
    ],
  },
};

const chinese: StoreListing = {
  name: zh_CN.extName.message,
  summary: zh_CN.extDescription.message,
  description: [
    'Remote MCP for Chrome 让你在 Chrome 侧边栏中使用远程 Model Context Protocol（MCP）服务器（Streamable HTTP）。除本扩展外无需安装任何程序。',
    '通过 URL 添加服务器，或粘贴其他 MCP 客户端的 JSON 配置；用 Bearer 令牌或 OAuth 2.1（发现、PKCE、刷新、追加权限）授权；选择启用哪些工具；查看每个服务器的状态；回答服务器的提问；手动使用工具、提示词和资源；并与你自己的模型服务商（OpenAI 兼容或 Anthropic）聊天，模型可以使用服务器的工具——每次调用都先征得你的同意。',
    '交互式 MCP App 视图在沙盒中呈现，无法访问扩展、你的 Cookie 或其他网站。',
    '机密信息以无法导出的浏览器内密钥加密保存；OAuth 访问令牌只存在会话存储中；从不向服务器发送 Cookie。扩展没有自己的服务器，不收集任何数据。',
  ],
  singlePurpose: '将 Chrome 连接到用户选择的远程 MCP 服务器，让用户（以及用户自己的模型服务商的聊天）在侧边栏中使用其工具、提示词和资源。',
  permissions: {
    storage: '在本机保存用户的服务器列表、设置、批准记录和加密的凭据。',
    sidePanel: '全部界面位于 Chrome 侧边栏中。',
    offscreen: 'MCP 连接（长时间的 HTTP 流）在离屏文档中运行，以便在服务工作线程空闲停止后继续保持。',
    identity: '当服务器要求授权时，打开 OAuth 2.1 登录窗口（chrome.identity.launchWebAuthFlow）。',
    'https://*/*': HOSTS_ZH,
    'http://127.0.0.1/*': LOOPBACK_ZH,
    'http://localhost/*': LOOPBACK_ZH,
    'http://[::1]/*': LOOPBACK_ZH,
  },
  privacy: {
    title: '隐私',
    intro: 'Remote MCP for Chrome 没有自己的服务器。它不收集分析数据、遥测数据或使用数据，也不向其作者发送任何内容。',
    sections: [
      {
        heading: '保存了什么、保存在哪里（仅在本机）',
        items: [
          '你的服务器列表（名称、URL、设置、工具选择）和“始终允许”的批准：Chrome 扩展存储（`chrome.storage.local`）。',
          'Bearer 令牌、刷新令牌、客户端密钥、请求头的值和聊天服务商的 API 密钥：同一存储，以浏览器内生成、无法导出的密钥做 AES-GCM 加密。',
          'OAuth 访问令牌：只在会话存储中（`chrome.storage.session`），浏览器关闭即清除。',
          '聊天（最近 100 个）、请求日志和服务器的待答问题：扩展的 IndexedDB。请求日志在保存前已脱敏。',
          '删除服务器会删除其凭据、批准记录和日志。卸载扩展会删除全部数据。',
        ],
      },
      {
        heading: '哪些数据离开本机、发给谁',
        items: [
          '发给你添加的每个 MCP 服务器：你或聊天发出的 MCP 请求（工具参数、提示词和资源请求），以及你为该服务器提供的凭据。从不发送浏览器 Cookie。',
          '发给 MCP 服务器指定的授权服务器：登录所需的 OAuth 请求（注册、授权、令牌和撤销请求）。',
          '发给你用“从目录添加”搜索的 MCP 注册表（除非你另行设置，否则为官方注册表），仅在你搜索时：搜索文字。绝不发送你的浏览器 Cookie。',
          '发给你为聊天配置的模型服务商：你的消息、你允许模型看到的工具定义和工具结果，以及该服务商的 API 密钥。',
          '不向扩展作者或任何其他人发送任何内容。',
        ],
      },
      {
        heading: '由你掌控',
        items: ['只有在你点击授予某个来源后，扩展才会访问该网站。你可以随时导出不含机密的配置、清空请求日志、删除聊天、移除任何服务器。'],
      },
    ],
  },
};

export const STORE_LISTINGS: Record<'en' | 'zh_CN', StoreListing> = { en: english, zh_CN: chinese };
