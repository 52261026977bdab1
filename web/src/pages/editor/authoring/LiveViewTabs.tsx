// The tab strip of the live view: a headless agent's browser shows no tabs,
// so a person recording through the picture sees the session's open tabs
// here (from the frames), shows one by clicking it and closes one with its
// ×, as in a browser; a recording records the switch before the next
// action there, and the close.
import type { ViewTab } from "../../../api/authoringApi";
import "./liveViewTabs.css";

/** A tab's name in the strip: its title, else its address. */
export const tabName = (tab: ViewTab) => tab.title.trim() || tab.url || "New tab";

export function LiveViewTabs({
  tabs,
  onSelect,
  onClose,
}: {
  tabs: ViewTab[];
  onSelect: (index: number) => void;
  onClose: (index: number) => void;
}) {
  return (
    <div className="live-view-tabs" role="tablist" aria-label="Tabs of the page">
      {tabs.map((tab, i) => (
        <span key={i} className={tab.current ? "live-view-tab current" : "live-view-tab"}>
          <button
            type="button"
            role="tab"
            aria-selected={tab.current}
            title={tab.url}
            onClick={() => {
              if (!tab.current) onSelect(i);
            }}
          >
            {tabName(tab)}
          </button>
          {i > 0 && (
            // The first tab is the session's page: it closes when the session ends.
            <button type="button" className="live-view-tab-close" aria-label={`Close tab ${tabName(tab)}`} onClick={() => onClose(i)}>
              ×
            </button>
          )}
        </span>
      ))}
    </div>
  );
}
