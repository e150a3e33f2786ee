/**
 * Who may dispatch. The scheduler calls `acquire()` at the start of every round — it is also the
 * renewal — and dispatches only when it answers true, so a node that lost leadership finds out
 * on its next round and stops dispatching.
 */
export interface SchedulerLeader {
  /** Takes or renews leadership for this round; false while another node leads. */
  acquire(): Promise<boolean>;
  /** Gives leadership up (on stop), so another node can take over at once. */
  release(): Promise<void>;
  /** For logs: where leadership lives, e.g. `lease x-jobs:scheduler:leader`. */
  readonly description: string;
  /** True for a leader that elects nobody (every node leads): named so in code and logs. */
  readonly unsafe: boolean;
}
