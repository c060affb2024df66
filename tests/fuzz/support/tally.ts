/**
 * Counts the statuses a property saw, so each suite prints how many inputs it ran and how many 5xx came back
 * (the figure the hardening table quotes), and so a property can prove it reached more than one outcome.
 */
export class StatusTally {
  private readonly counts = new Map<number, number>();

  constructor(private readonly label: string) {}

  record(status: number): void {
    this.counts.set(status, (this.counts.get(status) ?? 0) + 1);
  }

  get total(): number {
    return [...this.counts.values()].reduce((sum, n) => sum + n, 0);
  }

  get serverErrors(): number {
    return [...this.counts].filter(([status]) => status >= 500).reduce((sum, [, n]) => sum + n, 0);
  }

  statuses(): number[] {
    return [...this.counts.keys()].sort((a, b) => a - b);
  }

  summary(): string {
    const byStatus = this.statuses()
      .map((status) => `${status}×${this.counts.get(status)}`)
      .join(" ");
    return `fuzz ${this.label}: ${this.total} inputs, 5xx: ${this.serverErrors} (${byStatus})`;
  }
}
