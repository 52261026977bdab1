// A run that ended while its test was quarantined (docs/history.md): its
// result shows as it is, marked so that nobody reads it as a batch failure.
import { useQuery } from "@tanstack/react-query";
import { fetchTest } from "../../api/editorApi";
import "../tests/history.css";

/** QuarantinedBadge marks a quarantined run in tables (runs list, batch rows). */
export function QuarantinedBadge({ quarantined }: { quarantined?: boolean }) {
  if (!quarantined) return null;
  return (
    <>
      {" "}
      <span className="badge badge-quarantined" title="Its test was quarantined when it ended: its failure fails no batch">
        Quarantined
      </span>
    </>
  );
}

/**
 * QuarantinedRunBanner: the run page's notice. Runs keep only that their
 * test was quarantined; the reason shown is the test's quarantine now,
 * when it still is.
 */
export function QuarantinedRunBanner({ run }: { run: { testId: string; quarantined: boolean } }) {
  const test = useQuery({
    queryKey: ["editor", "test", run.testId, "quarantine"],
    queryFn: () => fetchTest(run.testId),
    enabled: run.quarantined,
  });
  if (!run.quarantined) return null;
  const reason = test.data?.test.quarantine?.reason;
  return (
    <p className="quarantine-banner" role="note">
      This test was quarantined when this run ended{reason ? `: ${reason}` : ""}. Its failure does not fail its batch.
    </p>
  );
}
