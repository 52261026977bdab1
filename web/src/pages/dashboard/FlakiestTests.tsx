// The dashboard's flakiest tests (docs/history.md): those called flaky now
// first, then by their flaky rate over their last 100 runs.
import { Link } from "react-router";
import { percent } from "../../api/historyApi";
import type { Dashboard } from "../../api/runs";
import { HealthBadges } from "../tests/TestHistory";

export function FlakiestTests({ figures }: { figures: Dashboard["flakiest"] }) {
  const headingId = "dashboard-flakiest-heading";
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>Flakiest tests</h2>
      {figures.length === 0 ? (
        <p className="muted">No test is flaky: none passed after a retry or flipped between passed and failed.</p>
      ) : (
        <table className="table" aria-labelledby={headingId}>
          <thead>
            <tr>
              <th scope="col">Test</th>
              <th scope="col" className="num">
                Flaky rate
              </th>
              <th scope="col" className="num">
                Pass rate
              </th>
            </tr>
          </thead>
          <tbody>
            {figures.map((f) => (
              <tr key={f.testId}>
                <td>
                  <Link to={`/tests/${encodeURIComponent(f.testId)}`}>{f.name}</Link> <HealthBadges flaky={f.flaky} />
                  {f.quarantined && (
                    <span className="badge badge-quarantined" title="Its failures fail no batch">
                      Quarantined
                    </span>
                  )}
                </td>
                <td className="num">{percent(f.flakyRate)}</td>
                <td className="num">{percent(f.passRate)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
