/**
 * Markup that is already safe: built only by {@link html}, whose every interpolation is escaped.
 * Nothing else makes one, so untrusted text (job names, payloads, errors) can reach a page only
 * as escaped text.
 */
export class Html {
  readonly #value: string;
  /** @internal Use {@link html}. */
  constructor(value: string, token: typeof SAFE) {
    if (token !== SAFE) throw new TypeError('Html is built by the html`` template only.');
    this.#value = value;
  }
  toString(): string {
    return this.#value;
  }
}

const SAFE: unique symbol = Symbol('x-jobs-dashboard.safe-html');

/** What a template slot accepts: safe markup, text (escaped), numbers, nothing, or a list of these. */
export type HtmlChild = Html | string | number | boolean | null | undefined | readonly HtmlChild[];

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** `text` with `& < > " ' \`` replaced by entities: safe in element content and quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (char) => ENTITIES[char] ?? char);
}

function render(child: HtmlChild): string {
  if (child instanceof Html) return child.toString();
  if (Array.isArray(child)) return child.map(render).join('');
  if (child === null || child === undefined || child === false || child === true) return '';
  return escapeHtml(String(child));
}

/**
 * The only way markup is made: the literal parts are the template's own; every `${…}` is
 * escaped unless it is itself an {@link Html} (a nested `html` template). Attribute values must
 * be double-quoted in the template.
 */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlChild[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += render(value) + (strings[index + 1] ?? '');
  });
  return new Html(out, SAFE);
}
