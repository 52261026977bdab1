// The project's dashboard (/): pass rates, runs per day and the daily pass
// rate over the last 30 days, the slowest and the most failing tests, the
// latest runs. Figures count only runs the caller can see (GET /api/dashboard).
import { useState, type ReactNode } from "react";
import { Link } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { Empty, ErrorBox, Loading, PageHeader, formatDuration } from "../../components/ui";
import { FlakiestTests } from "./FlakiestTests";
import { fetchDashboard, listRuns, type Dashboard, type TestFigure } from "../../api/runs";
import { useWorkspace } from "../../session";
import { RunTable } from "../runs/runBits";
import { PassRateChart, RunsPerDayChart, fillDays, percent } from "./charts";
import "./dashboard.css";

export function DashboardPage() {
  const ws = useWorkspace();
  const projectId = ws.project?.id ?? "";
  const dash = useQuery({ queryKey: ["dashboard", projectId], queryFn: () => fetchDashboard(projectId), refetchInterval: 60_000 });
  const latest = useQuery({
    queryKey: ["runs", projectId, "latest"],
    queryFn: () => listRuns(projectId, { limit: 5 }),
    refetchInterval: 15_000,
  });
  const [now] = useState(() => Date.now());

  return (
    <div className="dashboard">
      <PageHeader title="Dashboard" subtitle={ws.project ? `${ws.org?.name ?? ""} / ${ws.project.name}: the last 30 days` : undefined}>
        <Link className="button" to="/tests">
          Tests
        </Link>
        <Link className="button" to="/runs">
          All runs
        </Link>
      </PageHeader>
      {dash.isPending ? (
        <Loading label="Loading the figures" />
      ) : !dash.data ? (
        <ErrorBox error={dash.error} />
      ) : (
        <DashboardBody d={dash.data} now={now} />
      )}
      {latest.data && latest.data.runs.length > 0 && (
        <section aria-labelledby="latest-runs-heading">
          <h2 id="latest-runs-heading">Latest runs</h2>
          <RunTable runs={latest.data.runs} caption="Latest runs" columns={{ test: true }} />
        </section>
      )}
    </div>
  );
}

function testCount(d: Dashboard): number {
  return Object.values(d.testsByStatus).reduce((s, n) => s + n, 0);
}

function DashboardBody({ d, now }: { d: Dashboard; now: number }) {
  const tests = testCount(d);
  const by = (s: string) => d.testsByStatus[s] ?? 0;
  if (d.last30Days.total === 0) {
    return (
      <>
        <Empty>
          <p className="dashboard-empty-title">No runs yet: create a test and run it.</p>
          <p>
            {tests === 0 ? (
              <>
                Start in <Link to="/tests">Tests</Link>: write one step by step, or import a file (DSL or Selenium IDE .side).
              </>
            ) : (
              <>
                This project has {tests} test{tests === 1 ? "" : "s"}: open one in <Link to="/tests">Tests</Link> and press Run.
              </>
            )}{" "}
            Runs go to your own computer's agent: <Link to="/agents">pair one in Agents</Link>. Figures appear here once runs finish.
          </p>
        </Empty>
        {tests > 0 && <TestFigures d={d} />}
      </>
    );
  }
  const days = fillDays(d.runsPerDay, now);
  return (
    <>
      <div className="dashboard-cards">
        <Card title="Pass rate, last 7 days" value={d.last7Days.total ? percent(d.last7Days.passRate) : "—"}>
          {d.last7Days.passed} of {d.last7Days.total} runs passed
        </Card>
        <Card title="Pass rate, last 30 days" value={percent(d.last30Days.passRate)}>
          {d.last30Days.passed} of {d.last30Days.total} runs passed
        </Card>
        <Card title="Runs, last 30 days" value={String(d.last30Days.total)}>
          {d.last30Days.failed} failed
          {d.last30Days.total - d.last30Days.passed - d.last30Days.failed > 0 &&
            `, ${d.last30Days.total - d.last30Days.passed - d.last30Days.failed} error or cancelled`}
        </Card>
        <Card title="Tests" value={String(tests)}>
          {by("Ready")} Ready · {by("Draft")} Draft · {by("Deprecated")} Deprecated
        </Card>
      </div>
      <div className="dashboard-charts">
        <section className="panel" aria-labelledby="chart-runs-heading">
          <h2 id="chart-runs-heading">Runs per day</h2>
          <RunsPerDayChart days={days} />
        </section>
        <section className="panel" aria-labelledby="chart-rate-heading">
          <h2 id="chart-rate-heading">Pass rate per day</h2>
          <PassRateChart days={days} />
        </section>
      </div>
      <div className="dashboard-tables">
        <FigureTable
          id="slowest"
          title="Slowest tests"
          empty="No test finished a run."
          figures={d.slowest}
          columns={[
            { head: "Average duration", cell: (f) => formatDuration(f.avgDurationMs) },
            { head: "Runs", cell: (f) => <Link to={`/runs?testId=${f.testId}`}>{f.runs}</Link> },
          ]}
        />
        <FigureTable
          id="failing"
          title="Most failing tests"
          empty="No test failed in the last 30 days."
          figures={d.mostFailing}
          columns={[
            { head: "Failures", cell: (f) => <Link to={`/runs?testId=${f.testId}&status=failed`}>{f.failures}</Link> },
            { head: "Runs", cell: (f) => f.runs },
            { head: "Failure rate", cell: (f) => (f.runs ? percent(f.failures / f.runs) : "—") },
          ]}
        />
        <FlakiestTests figures={d.flakiest ?? []} />
      </div>
    </>
  );
}

function TestFigures({ d }: { d: Dashboard }) {
  const by = (s: string) => d.testsByStatus[s] ?? 0;
  return (
    <div className="dashboard-cards">
      <Card title="Tests" value={String(testCount(d))}>
        {by("Ready")} Ready · {by("Draft")} Draft · {by("Deprecated")} Deprecated
      </Card>
    </div>
  );
}

function Card({ title, value, children }: { title: string; value: string; children: ReactNode }) {
  return (
    <section className="dashboard-card" aria-label={title}>
      <h2>{title}</h2>
      <p className="dashboard-value">{value}</p>
      <p className="muted">{children}</p>
    </section>
  );
}

interface FigureColumn {
  head: string;
  cell: (f: TestFigure) => ReactNode;
}

function FigureTable({
  id,
  title,
  empty,
  figures,
  columns,
}: {
  id: string;
  title: string;
  empty: string;
  figures: TestFigure[];
  columns: FigureColumn[];
}) {
  const headingId = `dashboard-${id}-heading`;
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {figures.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <table className="table" aria-labelledby={headingId}>
          <thead>
            <tr>
              <th scope="col">Test</th>
              {columns.map((c) => (
                <th key={c.head} scope="col" className="num">
                  {c.head}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {figures.map((f) => (
              <tr key={f.testId}>
                <td>
                  <Link to={`/tests/${f.testId}`}>{f.name}</Link>
                </td>
                {columns.map((c) => (
                  <td key={c.head} className="num">
                    {c.cell(f)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
