// A run whose screenshots and trace the hub's retention settings removed
// (docs/retention.md): its steps, results and errors stay, and the page
// says plainly what went and when instead of showing broken pictures.
import { formatDate } from "../../components/ui";

/** The words of the notice, for the run page, its trace and its comparison. */
export function prunedWords(at: string): string {
  return `Screenshots and trace were removed on ${formatDate(at)} by the retention setting.`;
}

/** PrunedNotice: the run page's notice; nothing while the run keeps its artifacts. */
export function PrunedNotice({ at }: { at?: string | null }) {
  if (!at) return null;
  return (
    <p className="notice run-pruned" role="note" data-testid="run-pruned">
      {prunedWords(at)} The steps, their results and errors are kept.
    </p>
  );
}

/** PrunedSection stands where the Trace section would be for a pruned run. */
export function PrunedSection({ at, title }: { at: string; title: string }) {
  const id = `run-pruned-${title.toLowerCase().replace(/\W+/g, "-")}`;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <p className="muted">{prunedWords(at)}</p>
    </section>
  );
}
