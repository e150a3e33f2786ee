/** One `npm install …` line of a README's Install section, split into its words. */
export interface InstallLine {
  /** The line as written, trailing comment removed. */
  readonly text: string;
  /** The package specs, in order (`@x/jobs-core`, `zod`, `kysely@^0.28.19`); flags dropped. */
  readonly specs: readonly string[];
  /** The flags (`-D`). */
  readonly flags: readonly string[];
}

/**
 * The `npm install` lines of the `## Install` section of a README (up to the next `## ` heading),
 * in order. A trailing `# comment` is not part of the line.
 */
export function readInstallLines(readme: string): InstallLine[] {
  const section = /^## Install\s*$([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(readme)?.[1] ?? '';
  const lines: InstallLine[] = [];
  for (const raw of section.split('\n')) {
    const text = raw.replace(/\s+#.*$/, '').trim();
    if (!text.startsWith('npm install ')) continue;
    const words = text.split(/\s+/).slice(2);
    lines.push({
      text,
      specs: words.filter((word) => !word.startsWith('-')),
      flags: words.filter((word) => word.startsWith('-')),
    });
  }
  return lines;
}

/** The package name of a spec: `kysely@^0.28.19` → `kysely`, `@x/jobs-core` → `@x/jobs-core`. */
export function specName(spec: string): string {
  const at = spec.indexOf('@', 1);
  return at === -1 ? spec : spec.slice(0, at);
}
