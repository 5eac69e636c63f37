// The notifications bell (spec 000 §2 'Header', 'Notification list'; §3 Notification): an unread
// count badge kept live by the realtime provider, all marked read when the bell opens
// (PUT /notifications/read-all), the list newest first with its level's colour and icon, a click
// following the notice's href (integration expiry notices go to /account/profile), and the empty
// state 'You're all set. Nice work!'.
import { useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  CounterBadge,
  Popover,
  PopoverSurface,
  PopoverTrigger,
  Spinner,
  Subtitle2,
  Text,
  makeStyles,
  mergeClasses,
  tokens,
} from '@fluentui/react-components';
import { AlertRegular, CheckmarkCircleRegular, ErrorCircleRegular, InfoRegular, WarningRegular } from '@fluentui/react-icons';
import type { NotificationDto } from '../../contracts';
import { NOTIFICATION_MESSAGES, timeAgo, type NotificationLevel } from '../../domain';
import { useApi, queryKeys } from '../ApiContext';
import { applyNotificationsRead } from '../realtime/cache';
import { ActiveRuns } from '../progress/RunProgress';

function ActiveRunsSection() {
  return <ActiveRuns style={{ padding: '8px 12px', borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}` }} />;
}

export const NOTIFICATIONS_LOAD_FAILED = 'Could not load notifications.';

const useStyles = makeStyles({
  wrap: { position: 'relative', display: 'inline-flex' },
  iconButton: { minWidth: '32px' },
  badge: { position: 'absolute', top: '0', right: '0', pointerEvents: 'none' },
  popover: { width: '340px', maxWidth: 'calc(100vw - 16px)', padding: '0' },
  header: { padding: '12px 16px', borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}` },
  list: { listStyleType: 'none', margin: 0, padding: 0, maxHeight: '420px', overflowY: 'auto' },
  item: {
    display: 'flex',
    gap: tokens.spacingHorizontalS,
    padding: '10px 16px 10px 12px',
    borderLeft: '4px solid transparent',
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke3}`,
  },
  clickable: { cursor: 'pointer', ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover } },
  unread: { backgroundColor: tokens.colorNeutralBackground2 },
  error: { borderLeftColor: tokens.colorPaletteRedBorder2 },
  warning: { borderLeftColor: tokens.colorPaletteDarkOrangeBorder2 },
  info: { borderLeftColor: tokens.colorPaletteBlueBorderActive },
  icon: { fontSize: '20px', flexShrink: 0, marginTop: '1px' },
  errorIcon: { color: tokens.colorPaletteRedForeground1 },
  warningIcon: { color: tokens.colorPaletteDarkOrangeForeground1 },
  infoIcon: { color: tokens.colorPaletteBlueForeground2 },
  texts: { display: 'flex', flexDirection: 'column', gap: '2px', minWidth: 0 },
  message: { fontSize: tokens.fontSizeBase300, overflowWrap: 'anywhere' },
  time: { fontSize: tokens.fontSizeBase100, color: tokens.colorNeutralForeground3 },
  empty: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: '8px',
    padding: '28px 16px',
    color: tokens.colorNeutralForeground2,
  },
  emptyIcon: { fontSize: '32px', color: tokens.colorPaletteGreenForeground1 },
  center: { display: 'flex', justifyContent: 'center', padding: '20px' },
  failed: { padding: '16px', color: tokens.colorPaletteRedForeground1 },
});

const LEVEL_ICON: Record<NotificationLevel, typeof InfoRegular> = { error: ErrorCircleRegular, warning: WarningRegular, info: InfoRegular };

export interface NotificationBellProps {
  /** Follows an in-app href ('/account/profile'); other addresses open in a new tab. */
  onNavigate: (href: string) => void;
}

export function NotificationBell({ onNavigate }: NotificationBellProps) {
  const styles = useStyles();
  const api = useApi();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  // The ones that were unread when the bell opened stay highlighted while it is open.
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  const list = useQuery({
    queryKey: queryKeys.notificationList,
    queryFn: () => api.notifications.list(50),
    staleTime: 60_000,
  });
  const markAll = useMutation({
    mutationFn: () => api.notifications.markAllRead(),
    // The server also pushes notifications.read to the user's other clients.
    onSuccess: () => applyNotificationsRead(queryClient, 0),
  });
  const markAllRef = useRef(markAll);
  markAllRef.current = markAll;
  const unread = list.data?.unreadCount ?? 0;
  const notifications = list.data?.notifications ?? [];

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (next) {
      setFresh(new Set(notifications.filter((n) => !n.read).map((n) => n.id)));
      // Spec: all are marked read when the bell opens.
      if (unread > 0) markAllRef.current.mutate();
    }
  };

  const follow = (n: NotificationDto) => {
    if (!n.href) return;
    setOpen(false);
    if (n.href.startsWith('/')) onNavigate(n.href);
    else globalThis.open?.(n.href, '_blank', 'noopener,noreferrer');
  };

  return (
    <span className={styles.wrap}>
      <Popover open={open} onOpenChange={(_, d) => onOpenChange(d.open)} positioning="below-end" withArrow trapFocus>
        <PopoverTrigger disableButtonEnhancement>
          <Button
            appearance="subtle"
            className={styles.iconButton}
            icon={<AlertRegular />}
            aria-label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}
            data-testid="notifications-bell"
            data-unread-count={unread}
          />
        </PopoverTrigger>
        <PopoverSurface className={styles.popover} aria-label="Notifications" data-testid="notifications-popover">
          <div className={styles.header}>
            <Subtitle2>Notifications</Subtitle2>
          </div>
          {/* The user's long runs (running, or ended in the last minutes), each a live line with Cancel. */}
          <ActiveRunsSection />
          {list.isPending ? (
            <div className={styles.center}>
              <Spinner size="small" label="Loading..." />
            </div>
          ) : list.isError ? (
            <div className={styles.failed} role="alert">
              {NOTIFICATIONS_LOAD_FAILED}
            </div>
          ) : notifications.length === 0 ? (
            <div className={styles.empty} data-testid="notifications-empty">
              <CheckmarkCircleRegular className={styles.emptyIcon} aria-hidden />
              <Text>{NOTIFICATION_MESSAGES.empty}</Text>
            </div>
          ) : (
            <ul className={styles.list} data-testid="notifications-list">
              {notifications.map((n) => {
                const Icon = LEVEL_ICON[n.level];
                return (
                  <li
                    key={n.id}
                    className={mergeClasses(
                      styles.item,
                      styles[n.level],
                      n.href ? styles.clickable : undefined,
                      fresh.has(n.id) && styles.unread,
                    )}
                    onClick={() => follow(n)}
                    onKeyDown={(e) => {
                      if (e.key === 'Enter') follow(n);
                    }}
                    tabIndex={n.href ? 0 : undefined}
                    role={n.href ? 'link' : undefined}
                    data-testid="notification-item"
                    data-level={n.level}
                    data-href={n.href ?? undefined}
                    data-unread={fresh.has(n.id) ? 'true' : undefined}
                  >
                    <Icon className={mergeClasses(styles.icon, styles[`${n.level}Icon`])} aria-hidden />
                    <span className={styles.texts}>
                      <span className={styles.message}>{n.message}</span>
                      <span className={styles.time}>{timeAgo(n.createdAt)}</span>
                    </span>
                  </li>
                );
              })}
            </ul>
          )}
        </PopoverSurface>
      </Popover>
      <CounterBadge className={styles.badge} count={unread} size="small" color="danger" data-testid="notifications-badge" />
    </span>
  );
}
