/**
 * Progress bars for long work on the terminal (cli-progress, on stderr): records per second, and
 * time left when the total is known. Silent when stderr is not a terminal (CI, pipes, tests).
 */
import { Presets, SingleBar } from 'cli-progress';

export type ProgressBar = {
  update(value: number, total?: number, label?: string): void;
  stop(): void;
};

const formatRate = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));

export function createProgressBar(label: string, unit: string, total?: number): ProgressBar {
  const started = Date.now();
  const known = total !== undefined && total > 0;
  const bar = new SingleBar(
    {
      format: known
        ? `{label} |{bar}| {percentage}% | {value}/{total} ${unit} | {rate}/s | {duration_formatted} elapsed, {eta_formatted} left`
        : `{label} {value} ${unit} | {rate}/s | {duration_formatted} elapsed`,
      hideCursor: true,
      etaBuffer: 50,
      fps: 5,
      stream: process.stderr,
    },
    Presets.shades_classic,
  );
  let running = false;
  let currentLabel = label;
  return {
    update(value, newTotal, newLabel) {
      if (newLabel) currentLabel = newLabel;
      const rate = formatRate(value / Math.max(0.001, (Date.now() - started) / 1000));
      if (!running) {
        bar.start(newTotal ?? total ?? 0, value, { label: currentLabel, rate });
        running = true;
        return;
      }
      if (newTotal !== undefined) bar.setTotal(newTotal);
      bar.update(value, { label: currentLabel, rate });
    },
    stop() {
      if (running) bar.stop();
      running = false;
    },
  };
}
