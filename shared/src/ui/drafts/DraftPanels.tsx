// The stack of floating draft panels (spec 000 §2, §9): docked at the bottom right, side by side
// 10 px apart (expanded 600 × 610 px, minimised 250 px), shifted left by `offsetRight` (the
// detail drawer, open or collapsed). The rightmost is the last opened; panels that do not fit go
// behind a '+N' menu that brings one to the front. Under a plugin one panel takes the full width.
// A closed panel leaves the dock (DraftsContext). The page keeps a band free at its bottom for the
// minimised panels (useDraftDockReserve), so they never cover its controls (the pagination bar's
// 'Go to page'); an expanded panel is a window the user opened and lies over the page.
import { useEffect, useState } from 'react';
import { Button, Menu, MenuItem, MenuList, MenuPopover, MenuTrigger, makeStyles, tokens } from '@fluentui/react-components';
import { DRAFT_PANEL, layoutPanels } from '../../domain';
import { usePluginMode } from '../PluginMode';
import { DraftPanel } from './DraftPanel';
import { useDrafts } from './DraftsContext';

/** Width kept free on the left by default (the web app's expanded navigation). */
const LEFT_RESERVE = 240;
const OVERFLOW_LIST_LIMIT = 200;

const useStyles = makeStyles({
  dock: {
    position: 'fixed',
    bottom: 0,
    zIndex: 15,
    display: 'flex',
    flexDirection: 'row-reverse',
    alignItems: 'flex-end',
    gap: `${DRAFT_PANEL.gap}px`,
    pointerEvents: 'none',
  },
  more: { pointerEvents: 'auto', marginBottom: tokens.spacingVerticalS, boxShadow: tokens.shadow8 },
});

function useWindowWidth(): number {
  const [w, setW] = useState(() => (typeof window === 'undefined' ? 1440 : window.innerWidth));
  useEffect(() => {
    const on = () => setW(window.innerWidth);
    window.addEventListener('resize', on);
    return () => window.removeEventListener('resize', on);
  }, []);
  return w;
}

export function DraftPanels({ offsetRight = 0, offsetLeft = LEFT_RESERVE }: { offsetRight?: number; offsetLeft?: number }) {
  const styles = useStyles();
  const drafts = useDrafts();
  const plugin = usePluginMode();
  const width = useWindowWidth();
  if (!drafts || drafts.docked.length === 0) return null;
  const slots = drafts.docked.map((d) => ({ id: d.channelEmailId, expanded: drafts.isExpanded(d.channelEmailId) }));
  const available = plugin ? 0 : width - offsetRight - DRAFT_PANEL.gap - offsetLeft;
  const { shown, hidden } = layoutPanels(slots, available);
  const byId = new Map(drafts.docked.map((d) => [d.channelEmailId, d]));
  return (
    <div
      className={styles.dock}
      style={plugin ? { left: 0, right: 0 } : { right: `${offsetRight + DRAFT_PANEL.gap}px` }}
      data-testid="draft-panels"
    >
      {shown.map((s) => (
        <DraftPanel
          key={s.id}
          draft={byId.get(s.id)!}
          expanded={s.expanded}
          fullWidth={plugin}
          onExpandedChange={(on) => (on ? drafts.open(s.id) : drafts.setExpanded(s.id, false))}
          onClose={() => drafts.dismiss(s.id)}
        />
      ))}
      {hidden.length > 0 && (
        <Menu>
          <MenuTrigger disableButtonEnhancement>
            <Button className={styles.more} size="small" data-testid="draft-panels-more">{`+${hidden.length}`}</Button>
          </MenuTrigger>
          <MenuPopover>
            <MenuList style={{ maxHeight: 360, overflowY: 'auto' }}>
              {hidden.slice(0, OVERFLOW_LIST_LIMIT).map((s) => {
                const d = byId.get(s.id)!;
                return (
                  <MenuItem
                    key={s.id}
                    onClick={() => drafts.open(s.id)}
                    secondaryContent={d.subject ? undefined : d.status}
                    data-testid="draft-panels-more-item"
                  >
                    {`${d.title || d.to}${d.subject ? ` — ${d.subject}` : ''}`}
                  </MenuItem>
                );
              })}
            </MenuList>
          </MenuPopover>
        </Menu>
      )}
    </div>
  );
}
