// Hand-written SVG charts of the dashboard: runs per day (stacked bars) and
// the daily pass rate (a line). Each is an image with a name that says what
// it shows, and a visually hidden table with the same figures for screen
// readers.
import type { DayCounts } from "../../api/runs";

const dayFmt = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric", timeZone: "UTC" });

/** "3 Nov" for "2026-11-03" (days are UTC dates). */
export function formatDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? day : dayFmt.format(d);
}

export function percent(rate: number): string {
  return `${Math.round(rate * 100)}%`;
}

/** fillDays gives every day of the `count` days up to today (UTC), with zero counts where no run finished. */
export function fillDays(perDay: DayCounts[], now: number, count = 30): DayCounts[] {
  const byDay = new Map(perDay.map((d) => [d.day, d]));
  const today = new Date(now);
  const out: DayCounts[] = [];
  for (let i = count - 1; i >= 0; i--) {
    const d = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - i));
    const day = d.toISOString().slice(0, 10);
    out.push(byDay.get(day) ?? { day, total: 0, passed: 0, failed: 0, passRate: 0 });
  }
  return out;
}

const W = 720;
const H = 220;
const M = { top: 12, right: 12, bottom: 26, left: 40 };
const PW = W - M.left - M.right;
const PH = H - M.top - M.bottom;

/** A round upper bound for the y axis: 1, 2, 5, 10, 20, 50 ... */
function niceMax(v: number): number {
  if (v <= 1) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

function XLabels({ days }: { days: DayCounts[] }) {
  const slot = PW / days.length;
  return (
    <g className="chart-axis" aria-hidden="true">
      {days.map((d, i) =>
        i % 7 === days.length % 7 || i === days.length - 1 ? (
          <text key={d.day} x={M.left + slot * (i + 0.5)} y={H - 8} textAnchor="middle">
            {formatDay(d.day)}
          </text>
        ) : null,
      )}
    </g>
  );
}

function YGrid({ ticks, label }: { ticks: number[]; label: (v: number) => string }) {
  const max = ticks[ticks.length - 1] || 1;
  return (
    <g className="chart-grid" aria-hidden="true">
      {ticks.map((t) => {
        const y = M.top + PH - (t / max) * PH;
        return (
          <g key={t}>
            <line x1={M.left} x2={W - M.right} y1={y} y2={y} />
            <text x={M.left - 6} y={y + 4} textAnchor="end">
              {label(t)}
            </text>
          </g>
        );
      })}
    </g>
  );
}

export function RunsPerDayChart({ days }: { days: DayCounts[] }) {
  const total = days.reduce((s, d) => s + d.total, 0);
  const passed = days.reduce((s, d) => s + d.passed, 0);
  const failed = days.reduce((s, d) => s + d.failed, 0);
  const max = niceMax(Math.max(...days.map((d) => d.total), 1));
  const ticks = max <= 1 ? [0, 1] : [0, max / 2, max];
  const slot = PW / days.length;
  const bw = Math.max(2, slot * 0.7);
  const h = (v: number) => (v / max) * PH;
  const label = `Runs per day over the last ${days.length} days: ${total} runs, ${passed} passed, ${failed} failed, ${total - passed - failed} ended otherwise (error or cancelled).`;
  return (
    <figure className="chart">
      <svg role="img" aria-label={label} viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="xMidYMid meet">
        <title>{label}</title>
        <YGrid ticks={ticks} label={(v) => String(v)} />
        {days.map((d, i) => {
          const x = M.left + slot * i + (slot - bw) / 2;
          const other = d.total - d.passed - d.failed;
          let y = M.top + PH;
          const seg = (v: number, cls: string) => {
            if (v <= 0) return null;
            y -= h(v);
            return <rect key={cls} className={cls} x={x} y={y} width={bw} height={h(v)} />;
          };
          return (
            <g key={d.day}>
              {d.total > 0 && (
                <title>{`${formatDay(d.day)}: ${d.total} runs, ${d.passed} passed, ${d.failed} failed, ${other} other`}</title>
              )}
              {seg(d.passed, "bar-passed")}
              {seg(d.failed, "bar-failed")}
              {seg(other, "bar-other")}
            </g>
          );
        })}
        <XLabels days={days} />
      </svg>
      <figcaption className="chart-legend" aria-hidden="true">
        <span className="key key-passed" /> passed <span className="key key-failed" /> failed <span className="key key-other" /> error or
        cancelled
      </figcaption>
      <table className="sr-only">
        <caption>Runs per day</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Runs</th>
            <th scope="col">Passed</th>
            <th scope="col">Failed</th>
          </tr>
        </thead>
        <tbody>
          {days
            .filter((d) => d.total > 0)
            .map((d) => (
              <tr key={d.day}>
                <th scope="row">{formatDay(d.day)}</th>
                <td>{d.total}</td>
                <td>{d.passed}</td>
                <td>{d.failed}</td>
              </tr>
            ))}
        </tbody>
      </table>
    </figure>
  );
}

export function PassRateChart({ days }: { days: DayCounts[] }) {
  const slot = PW / days.length;
  const withRuns = days.map((d, i) => ({ d, i })).filter(({ d }) => d.total > 0);
  const x = (i: number) => M.left + slot * (i + 0.5);
  const y = (rate: number) => M.top + PH - rate * PH;
  const total = withRuns.reduce((s, { d }) => s + d.total, 0);
  const passed = withRuns.reduce((s, { d }) => s + d.passed, 0);
  const lowest = withRuns.reduce<DayCounts | null>((lo, { d }) => (lo === null || d.passRate < lo.passRate ? d : lo), null);
  const label =
    total === 0
      ? `Pass rate per day over the last ${days.length} days: no runs.`
      : `Pass rate per day over the last ${days.length} days: ${percent(passed / total)} of ${total} runs passed overall` +
        (lowest ? `; lowest ${percent(lowest.passRate)} on ${formatDay(lowest.day)}.` : ".");
  const path = withRuns.map(({ d, i }, k) => `${k === 0 ? "M" : "L"}${x(i).toFixed(1)},${y(d.passRate).toFixed(1)}`).join(" ");
  return (
    <figure className="chart">
      <svg role="img" aria-label={label} viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="xMidYMid meet">
        <title>{label}</title>
        <YGrid ticks={[0, 0.5, 1]} label={(v) => percent(v)} />
        {path && <path className="line-rate" d={path} />}
        {withRuns.map(({ d, i }) => (
          <circle key={d.day} className="dot-rate" cx={x(i)} cy={y(d.passRate)} r={3.5}>
            <title>{`${formatDay(d.day)}: ${percent(d.passRate)} of ${d.total} runs passed`}</title>
          </circle>
        ))}
        <XLabels days={days} />
      </svg>
      <table className="sr-only">
        <caption>Pass rate per day</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Pass rate</th>
            <th scope="col">Runs</th>
          </tr>
        </thead>
        <tbody>
          {withRuns.map(({ d }) => (
            <tr key={d.day}>
              <th scope="row">{formatDay(d.day)}</th>
              <td>{percent(d.passRate)}</td>
              <td>{d.total}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
