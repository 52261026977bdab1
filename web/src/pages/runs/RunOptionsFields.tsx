// The browser options of a run, the same for one test and for many:
// a visible window or not, and which steps get a screenshot.

interface Props {
  headed: boolean;
  onHeaded: (v: boolean) => void;
  screenshots: boolean;
  onScreenshots: (v: boolean) => void;
  /** Runs of many tests: each has its own window. */
  many?: boolean;
}

export function RunOptionsFields({ headed, onHeaded, screenshots, onScreenshots, many }: Props) {
  return (
    <>
      <label className="inline">
        <input type="checkbox" checked={headed} onChange={(e) => onHeaded(e.target.checked)} />
        {many ? "Headed (show the browser windows)" : "Headed (show the browser window)"}
      </label>
      <fieldset>
        <legend>Screenshots</legend>
        <label className="inline">
          <input type="radio" name="screenshots" checked={screenshots} onChange={() => onScreenshots(true)} />
          Every step
        </label>
        <label className="inline">
          <input type="radio" name="screenshots" checked={!screenshots} onChange={() => onScreenshots(false)} />
          Failures only
        </label>
      </fieldset>
    </>
  );
}
