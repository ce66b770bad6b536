/**
 * The headers a directory entry's endpoint declares (SPEC S1), as fields of the guided add: one
 * input per header, named by the header, with the registry's description and placeholder as
 * hints (never as values), a password field for a secret. What the user types becomes a static
 * header of that one server, sealed by the worker like any other; it is sent nowhere else. A
 * header the extension sets itself (Authorization) gets a note instead of a field.
 */
import type { DirectoryEntry } from '../protocol/panel-directory.js';
import { hasValueControlChar } from '../common/control-chars.js';
import { el } from './dom.js';
import { FieldError } from './field-error.js';
import { t } from './i18n.js';
import { checkHeaderName } from './server-form-model.js';
import { field } from './server-form-fields.js';

type Header = DirectoryEntry['remotes'][number]['headers'][number];

interface HeaderField {
  header: Header;
  input: HTMLInputElement;
  error: FieldError;
}

export class DirectoryHeaderFields {
  readonly node: HTMLDivElement = el('div', { class: 'directory-headers' });
  #fields: HeaderField[] = [];

  /** Shows the fields of `headers` (none: nothing shows). */
  show(headers: readonly Header[]) {
    this.#fields = [];
    const parts: HTMLElement[] = [];
    for (const header of headers) {
      if (!checkHeaderName(header.name).ok) {
        parts.push(el('p', { class: 'reserved muted' }, t('directoryHeaderReserved', header.name)));
        continue;
      }
      const input = el('input', {
        name: `directory-header`,
        'data-header': header.name,
        type: header.secret ? 'password' : 'text',
        autocomplete: 'off',
        spellcheck: 'false',
        maxlength: '8192',
        ...(header.placeholder ? { placeholder: header.placeholder } : {}),
      });
      const label = header.required ? t('directoryHeaderRequired', header.name) : header.name;
      const help = [header.description, t('directoryHeaderHelp')].filter(Boolean).join(' ');
      const error = new FieldError(input);
      parts.push(field(label, input, help), error.node);
      this.#fields.push({ header, input, error });
    }
    this.node.replaceChildren(...parts);
  }

  /** Names of the required headers that have a field (the ones the user must fill in). */
  get required(): string[] {
    return this.#fields.filter((f) => f.header.required).map((f) => f.header.name);
  }

  clear() {
    this.show([]);
  }

  /** The values typed, or undefined after showing the first problem at its field (and focusing it). */
  values(): { name: string; value: string }[] | undefined {
    const out: { name: string; value: string }[] = [];
    for (const { header, input, error } of this.#fields) {
      const value = input.value.trim();
      error.clear();
      const problem =
        header.required && !value
          ? t('directoryHeaderMissing', header.name)
          : hasValueControlChar(value)
            ? t('directoryHeaderControl', header.name)
            : '';
      if (problem) {
        error.show(problem);
        input.focus();
        return undefined;
      }
      if (value) out.push({ name: header.name, value });
    }
    return out;
  }
}
