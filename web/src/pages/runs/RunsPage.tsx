// The project's run history (/runs), newest first, filtered by test and
// status through the URL (?testId=, ?status=, as GET /api/runs reads them)
// and paged with "Load more". With ?testId= it is one test's history.
import { Link, useSearchParams } from "react-router";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { Empty, ErrorBox, Loading, PageHeader } from "../../components/ui";
import { get, inProject, recordCall, type Test, type TestList } from "../../api";
import { RUN_STATUSES, isFinalStatus, listRuns } from "../../api/runs";
import { useWorkspace } from "../../session";
import { RunTable, useEnvironmentNames } from "./runBits";
import "./runs.css";

const PAGE = 50;

export function RunsPage() {
  const ws = useWorkspace();
  const projectId = ws.project?.id ?? "";
  const [params, setParams] = useSearchParams();
  const testId = params.get("testId") ?? "";
  const status = params.get("status") ?? "";

  const setFilter = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  };

  const runs = useInfiniteQuery({
    queryKey: ["runs", projectId, testId, status],
    queryFn: ({ pageParam }) => listRuns(projectId, { testId, status, cursor: pageParam || undefined, limit: PAGE }),
    initialPageParam: "",
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    // Runs still queued or running change on their own: look again now and then.
    refetchInterval: (q) => (q.state.data?.pages.some((p) => p.runs.some((r) => !isFinalStatus(r.status))) ? 5000 : false),
  });
  const tests = useQuery({
    // Under "tests", so creating, saving or deleting a test refreshes the filter.
    queryKey: ["tests", "run-filter", projectId],
    queryFn: () => get<TestList>("/api/tests?limit=500&sort=name", inProject(projectId)),
    staleTime: 60_000,
  });
  const chosenTest = useQuery({
    queryKey: ["run-filter-test", testId],
    queryFn: () => get<Test>(`/api/tests/${encodeURIComponent(testId)}`, recordCall),
    enabled: !!testId,
    retry: false,
  });
  const envQ = useEnvironmentNames(projectId);

  const all = runs.data?.pages.flatMap((p) => p.runs) ?? [];
  const testName = chosenTest.data?.name ?? all[0]?.testName ?? (testId ? "a test" : "");
  const testOptions = tests.data?.tests ?? [];
  const filtered = !!testId || !!status;

  return (
    <div className="runs-page">
      <PageHeader
        title={testId ? `Runs of ${testName}` : "Runs"}
        subtitle={
          testId ? <Link to={`/tests/${testId}`}>Open the test</Link> : "Every run of the project's tests you can see, newest first."
        }
      >
        {testId && (
          <Link className="button" to={status ? `/runs?status=${status}` : "/runs"}>
            All runs
          </Link>
        )}
      </PageHeader>

      <form className="filters" role="search" aria-label="Filter runs" onSubmit={(e) => e.preventDefault()}>
        <label>
          Test
          <select value={testId} onChange={(e) => setFilter("testId", e.target.value)}>
            <option value="">All tests</option>
            {testId && !testOptions.some((t) => t.id === testId) && <option value={testId}>{testName}</option>}
            {testOptions.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Status
          <select value={status} onChange={(e) => setFilter("status", e.target.value)}>
            <option value="">All statuses</option>
            {RUN_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        {filtered && (
          <Link to="/runs" className="runs-clear">
            Clear filters
          </Link>
        )}
      </form>

      {runs.isPending ? (
        <Loading label="Loading the runs" />
      ) : !runs.data ? (
        <ErrorBox error={runs.error} />
      ) : all.length === 0 ? (
        <Empty>
          {filtered ? (
            <>
              No runs match these filters. <Link to="/runs">Show all runs</Link>
            </>
          ) : (
            <>
              No runs yet: open a test in <Link to="/tests">Tests</Link> and press Run.
            </>
          )}
        </Empty>
      ) : (
        <>
          <RunTable
            runs={all}
            caption={testId ? `Runs of ${testName}` : "Runs"}
            columns={{ test: !testId, environment: true, startedBy: true, batch: true }}
            environments={envQ.data ?? (envQ.isError ? {} : undefined)}
          />
          {runs.isFetchNextPageError && <ErrorBox error={runs.error} title="More runs could not be loaded" />}
          {runs.hasNextPage && (
            <p className="runs-more">
              <button type="button" onClick={() => void runs.fetchNextPage()} disabled={runs.isFetchingNextPage}>
                {runs.isFetchingNextPage ? "Loading…" : "Load more"}
              </button>
            </p>
          )}
        </>
      )}
    </div>
  );
}
