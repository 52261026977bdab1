// The project's tests: search, suite and visibility filters kept in the URL
// (so reload and back keep them), cursor paging, the New test and Import
// dialogs, and runs of many tests: "Run selected" (the ticked tests) and
// "Run all N matching" (every test the filters match, fetched page by page
// when it starts, Deprecated ones left out) open the batch run dialog.
import { useEffect, useId, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { keepPreviousData, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import type { Test } from "../../api";
import {
  HEALTH_FILTERS,
  listSuites,
  listTests,
  TEST_SORTS,
  type HealthFilter,
  VISIBILITY_FILTERS,
  type TestFilters,
  type TestSort,
  type VisibilityFilter,
} from "../../api/testsApi";
import { Empty, ErrorBox, Loading, PageHeader, StatusBadge, When } from "../../components/ui";
import { useWorkspace } from "../../session";
import { CreateTestDialog } from "./CreateTestDialog";
import { ImportDialog } from "./ImportDialog";
import { BatchRunDialog } from "../runs/BatchRunDialog";
import { MAX_BATCH, matchingTestIds } from "../../api/batches";
import { HistoryCell } from "./TestHistory";
import "./tests.css";

/** The Suite filter's value for "Unsorted": suite names cannot hold a slash, so none can collide. */
export const UNSORTED = "/unsorted";
const SEARCH_DELAY_MS = 300;

/** filtersFromParams reads the list's filters from the page's query string. */
export function filtersFromParams(p: URLSearchParams): TestFilters {
  const vis = p.get("visibility");
  const sort = p.get("sort");
  const health = p.get("health");
  return {
    q: p.get("q") ?? "",
    suite: p.get("suite") ?? undefined,
    unsorted: p.get("unsorted") === "1",
    visibility: VISIBILITY_FILTERS.some((v) => v.value === vis) ? (vis as VisibilityFilter) : "all",
    sort: TEST_SORTS.some((s) => s.value === sort) ? (sort as TestSort) : "name",
    health: HEALTH_FILTERS.some((h) => h.value === health) ? (health as HealthFilter) : "all",
  };
}

function plural(n: number, one: string, many: string): string {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}

export function TestListPage() {
  const ws = useWorkspace();
  const projectId = ws.project?.id ?? "";
  const id = useId();
  const [params, setParams] = useSearchParams();
  const filters = filtersFromParams(params);
  const [dialog, setDialog] = useState<"create" | "import" | "selected" | "matching" | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = (testId: string, on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(testId);
      else next.delete(testId);
      return next;
    });

  // The search box updates the URL after a pause in typing, replacing the
  // history entry so Back leaves the page instead of undoing letters.
  const urlQ = filters.q ?? "";
  const [text, setText] = useState(urlQ);
  useEffect(() => setText(urlQ), [urlQ]);
  useEffect(() => {
    if (text === urlQ) return;
    const t = setTimeout(() => {
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (text.trim()) next.set("q", text);
          else next.delete("q");
          return next;
        },
        { replace: true },
      );
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(t);
  }, [text, urlQ, setParams]);

  const setParam = (key: string, value: string | null) => {
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (value) next.set(key, value);
      else next.delete(key);
      return next;
    });
  };
  const setSuite = (value: string) => {
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      next.delete("suite");
      next.delete("unsorted");
      if (value === UNSORTED) next.set("unsorted", "1");
      else if (value) next.set("suite", value);
      return next;
    });
  };

  const suites = useQuery({
    queryKey: ["suites", projectId],
    queryFn: ({ signal }) => listSuites(projectId, signal),
    enabled: !!projectId,
  });
  const list = useInfiniteQuery({
    queryKey: ["tests", "list", projectId, filters],
    queryFn: ({ pageParam, signal }) => listTests(projectId, { ...filters, cursor: pageParam }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
    enabled: !!projectId,
  });

  const filtered = !!(filters.q || filters.suite || filters.unsorted || filters.visibility !== "all" || filters.health !== "all");
  const suiteValue = filters.unsorted ? UNSORTED : (filters.suite ?? "");
  const suiteNames = suites.data?.map((s) => s.name) ?? [];
  if (filters.suite && !suiteNames.includes(filters.suite)) suiteNames.push(filters.suite);
  const tests = list.data?.pages.flatMap((p) => p.tests) ?? [];
  const total = list.data?.pages[0]?.total ?? 0;
  const runnable = tests.filter((t) => t.can.run && t.status !== "Deprecated");
  const allShownSelected = runnable.length > 0 && runnable.every((t) => selected.has(t.id));
  const toggleAll = (on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      for (const t of runnable) {
        if (on) next.add(t.id);
        else next.delete(t.id);
      }
      return next;
    });

  return (
    <div className="tl-page">
      <PageHeader title="Tests" subtitle={list.data ? plural(total, "test", "tests") : undefined}>
        <button type="button" onClick={() => setDialog("import")}>
          Import
        </button>
        <button type="button" className="primary" onClick={() => setDialog("create")}>
          New test
        </button>
      </PageHeader>

      <form className="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <div className="tl-filter">
          <label htmlFor={`${id}-q`}>Search</label>
          <input id={`${id}-q`} type="search" placeholder="Name, suite or tag" value={text} onChange={(e) => setText(e.target.value)} />
        </div>
        <div className="tl-filter">
          <label htmlFor={`${id}-suite`}>Suite</label>
          <select id={`${id}-suite`} value={suiteValue} onChange={(e) => setSuite(e.target.value)}>
            <option value="">All suites</option>
            <option value={UNSORTED}>Unsorted</option>
            {suiteNames.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </div>
        <div className="tl-filter">
          <label htmlFor={`${id}-visibility`}>Visibility</label>
          <select
            id={`${id}-visibility`}
            value={filters.visibility}
            onChange={(e) => setParam("visibility", e.target.value === "all" ? null : e.target.value)}
          >
            {VISIBILITY_FILTERS.map((v) => (
              <option key={v.value} value={v.value}>
                {v.label}
              </option>
            ))}
          </select>
        </div>
        <div className="tl-filter">
          <label htmlFor={`${id}-health`}>History</label>
          <select
            id={`${id}-health`}
            value={filters.health}
            onChange={(e) => setParam("health", e.target.value === "all" ? null : e.target.value)}
          >
            {HEALTH_FILTERS.map((h) => (
              <option key={h.value} value={h.value}>
                {h.label}
              </option>
            ))}
          </select>
        </div>
        <div className="tl-filter">
          <label htmlFor={`${id}-sort`}>Sort</label>
          <select
            id={`${id}-sort`}
            value={filters.sort}
            onChange={(e) => setParam("sort", e.target.value === "name" ? null : e.target.value)}
          >
            {TEST_SORTS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
        {filtered && (
          <button
            type="button"
            className="link-button tl-clear"
            onClick={() => setParams(filters.sort !== "name" ? { sort: filters.sort ?? "" } : {})}
          >
            Clear filters
          </button>
        )}
        {list.isFetching && !list.isFetchingNextPage && list.data && (
          <span className="muted tl-updating" role="status">
            Updating…
          </span>
        )}
      </form>
      {suites.isError && <ErrorBox error={suites.error} title="The suites could not be loaded" />}

      {list.isPending ? (
        <Loading label="Loading tests" />
      ) : list.isError && !list.data ? (
        <ErrorBox error={list.error} />
      ) : tests.length === 0 ? (
        <Empty>{filtered ? "No test matches these filters" : "No tests yet — create one or import a file"}</Empty>
      ) : (
        <>
          <div className="tl-batch" role="toolbar" aria-label="Run many tests">
            <button type="button" className="primary" disabled={selected.size === 0} onClick={() => setDialog("selected")}>
              Run selected{selected.size > 0 ? ` (${selected.size})` : ""}
            </button>
            <button type="button" disabled={total === 0 || total > MAX_BATCH} onClick={() => setDialog("matching")}>
              Run all {total.toLocaleString()} {filtered ? "matching" : total === 1 ? "test" : "tests"}
            </button>
            {selected.size > 0 && (
              <button type="button" className="link-button" onClick={() => setSelected(new Set())}>
                Clear selection
              </button>
            )}
            {total > MAX_BATCH && <span className="muted">At most {MAX_BATCH} tests run at once: narrow the filters.</span>}
          </div>
          <TestTable tests={tests} selected={selected} onToggle={toggle} allSelected={allShownSelected} onToggleAll={toggleAll} />
          <div className="tl-more">
            <span className="muted">
              Showing {plural(tests.length, "test", "tests")} of {total.toLocaleString()}
            </span>
            {list.hasNextPage && (
              <button type="button" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
                {list.isFetchingNextPage ? "Loading…" : "Load more"}
              </button>
            )}
          </div>
          {list.isError && <ErrorBox error={list.error} />}
        </>
      )}

      {dialog === "create" && <CreateTestDialog suites={suites.data ?? []} onClose={() => setDialog(null)} />}
      {dialog === "import" && <ImportDialog onClose={() => setDialog(null)} />}
      {dialog === "selected" && (
        <BatchRunDialog
          title={`Run ${plural(selected.size, "test", "tests")}`}
          summary={`The ${plural(selected.size, "selected test", "selected tests")} will run, each as its own run.`}
          selection={{ testIds: [...selected] }}
          projectId={projectId}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === "matching" && (
        <BatchRunDialog
          title={`Run ${plural(total, "test", "tests")}`}
          summary={`Every test ${filtered ? "these filters match" : "of the project"} (${total.toLocaleString()}) will run, each as its own run; Deprecated tests are left out.`}
          selection={async () => {
            const { ids } = await matchingTestIds(projectId, filters);
            return { testIds: ids };
          }}
          projectId={projectId}
          onClose={() => setDialog(null)}
        />
      )}
    </div>
  );
}

function TestTable({
  tests,
  selected,
  onToggle,
  allSelected,
  onToggleAll,
}: {
  tests: Test[];
  selected: ReadonlySet<string>;
  onToggle: (id: string, on: boolean) => void;
  allSelected: boolean;
  onToggleAll: (on: boolean) => void;
}) {
  return (
    <table className="table tl-table">
      <thead>
        <tr>
          <th scope="col" className="tl-check">
            <input
              type="checkbox"
              aria-label="Select all shown tests"
              checked={allSelected}
              onChange={(e) => onToggleAll(e.target.checked)}
            />
          </th>
          <th scope="col">Name</th>
          <th scope="col">Suite</th>
          <th scope="col">Status</th>
          <th scope="col">Owner</th>
          <th scope="col" className="num">
            Steps
          </th>
          <th scope="col">Last runs</th>
          <th scope="col">Last run</th>
          <th scope="col">Last saved</th>
        </tr>
      </thead>
      <tbody>
        {tests.map((t) => (
          <TestRow key={t.id} test={t} selected={selected.has(t.id)} onToggle={(on) => onToggle(t.id, on)} />
        ))}
      </tbody>
    </table>
  );
}

function TestRow({ test: t, selected, onToggle }: { test: Test; selected: boolean; onToggle: (on: boolean) => void }) {
  const runnable = t.can.run && t.status !== "Deprecated";
  return (
    <tr className={selected ? "tl-selected" : undefined}>
      <td className="tl-check">
        <input
          type="checkbox"
          aria-label={`Select ${t.name}`}
          checked={selected}
          disabled={!runnable}
          title={runnable ? undefined : "A Deprecated test does not run"}
          onChange={(e) => onToggle(e.target.checked)}
        />
      </td>
      <td className="tl-name">
        <Link to={`/tests/${encodeURIComponent(t.id)}`}>{t.name}</Link> <span className="muted tl-version">v{t.version}</span>
        {t.tags.length > 0 && (
          <div className="tl-tags">
            {t.tags.map((tag) => (
              <span key={tag} className="tl-tag">
                {tag}
              </span>
            ))}
          </div>
        )}
      </td>
      <td>{t.suite ?? <span className="muted">—</span>}</td>
      <td>
        <StatusBadge status={t.status} />
      </td>
      <td>
        {t.owner ? t.owner.name : <span className="muted">(account removed)</span>} <StatusBadge status={t.visibility} />
      </td>
      <td className="num">{t.steps}</td>
      <td>
        <HistoryCell history={t.history} quarantine={t.quarantine} />
      </td>
      <td>
        {t.lastRun ? (
          <>
            <Link to={`/runs/${encodeURIComponent(t.lastRun.runId)}`} className="tl-run">
              <StatusBadge status={t.lastRun.status} /> {t.lastRun.passed}/{t.lastRun.total}
            </Link>
            <div className="tl-sub">
              <When at={t.lastRun.at} />
            </div>
          </>
        ) : (
          <span className="muted">never</span>
        )}
      </td>
      <td>
        <When at={t.lastSaved.at} />
        <div className="tl-sub">{t.lastSaved.by ? t.lastSaved.by.name : "(account removed)"}</div>
      </td>
    </tr>
  );
}
