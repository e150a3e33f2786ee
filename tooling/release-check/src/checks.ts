/**
 * Named checks run one after another, each printing one line (✓ or ✗ with its reason indented),
 * closing with `N passed, N failed` and the exit code. A throw is the check's failure and never
 * stops the checks after it.
 */
export class Checks {
  readonly #started = Date.now();
  #passed = 0;
  #failed = 0;

  /** Runs `body`; what it answers is printed after the name. Answers whether it passed. */
  async run(name: string, body: () => Promise<string | undefined>): Promise<boolean> {
    try {
      const detail = await body();
      this.#passed += 1;
      console.log(`✓ ${name}${detail === undefined ? '' : `: ${detail}`} [${this.#elapsed()}]`);
      return true;
    } catch (error) {
      this.#failed += 1;
      const message = String((error as Error).message ?? error).replace(/^/gm, '    ');
      console.log(`✗ ${name} [${this.#elapsed()}]\n${message}`);
      return false;
    }
  }

  /** Prints the tally and sets the exit code: non-zero when any check failed. */
  close(): void {
    console.log(`release-check took ${this.#elapsed()}`);
    console.log(`${this.#passed} passed, ${this.#failed} failed`);
    process.exitCode = this.#failed === 0 ? 0 : 1;
  }

  #elapsed(): string {
    return `${((Date.now() - this.#started) / 1000).toFixed(1)}s`;
  }
}
