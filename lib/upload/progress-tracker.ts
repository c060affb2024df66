/** One moment of an upload, as the progress bar shows it. */
export type UploadProgress = {
  loaded: number;
  total: number;
  /** 0–100, whole numbers; never goes backwards. */
  percent: number;
  /** Over the last few seconds, so it follows the current pace rather than the average. */
  bytesPerSecond: number | null;
  secondsLeft: number | null;
};

const WINDOW_MS = 3000;

/**
 * Turns raw `(loaded, now)` readings into percent, speed and time left. The speed is measured over a
 * sliding window because a whole-upload average hides a connection that just slowed down.
 */
export function createProgressTracker(total: number) {
  const samples: { at: number; loaded: number }[] = [];
  let highest = 0;
  return {
    update(loaded: number, now: number): UploadProgress {
      highest = Math.max(highest, Math.min(loaded, total));
      samples.push({ at: now, loaded: highest });
      while (samples.length > 2 && now - samples[0]!.at > WINDOW_MS) samples.shift();
      const first = samples[0]!;
      const elapsedMs = now - first.at;
      const bytesPerSecond = elapsedMs >= 200 ? ((highest - first.loaded) * 1000) / elapsedMs : null;
      const secondsLeft = bytesPerSecond ? Math.ceil((total - highest) / bytesPerSecond) : null;
      const percent = total === 0 ? 100 : Math.floor((highest / total) * 100);
      return { loaded: highest, total, percent, bytesPerSecond, secondsLeft };
    },
  };
}
