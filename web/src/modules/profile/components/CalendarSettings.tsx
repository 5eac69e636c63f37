// Profile → Calendar (spec 001 §3 User calendar): time zone, meeting length (30 by default) and
// weekly hours — one period per weekday here (the API takes several), a day switched off is not
// available.
import { useMemo, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Checkbox, Field, Input, Select, Spinner, Subtitle2, makeStyles, tokens } from '@fluentui/react-components';
import type { UpdateCalendarBody } from '@dealscout/shared/contracts';
import { CALENDAR_MESSAGES, MEETING_LENGTHS, WEEKDAYS, calendarOf, weeklyHoursProblem, type Weekday } from '@dealscout/shared/domain';
import { useNotify } from '@dealscout/shared/ui';
import { api, errorMessage } from '../../../app/api';
import { USER_KEY, useUser } from '../../session/hooks/useSession';

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexDirection: 'column',
    gap: '12px',
    borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    paddingTop: '12px',
  },
  row: { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)', gap: '12px' },
  days: { display: 'grid', gridTemplateColumns: '140px 130px 130px', alignItems: 'center', columnGap: '12px', rowGap: '6px' },
  actions: { display: 'flex', justifyContent: 'flex-end' },
});

const LABEL: Record<Weekday, string> = {
  monday: 'Monday',
  tuesday: 'Tuesday',
  wednesday: 'Wednesday',
  thursday: 'Thursday',
  friday: 'Friday',
  saturday: 'Saturday',
  sunday: 'Sunday',
};

function timeZones(): string[] {
  const list = (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  return list.includes('UTC') ? list : ['UTC', ...list];
}

export function CalendarSettings() {
  const styles = useStyles();
  const user = useUser();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const browserTz = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const saved = useMemo(() => calendarOf(user.calendar, browserTz), [user.calendar, browserTz]);
  const [draft, setDraft] = useState<UpdateCalendarBody>(saved);
  const zones = useMemo(timeZones, []);
  const problem = weeklyHoursProblem(draft.weeklyHours);
  const dirty = JSON.stringify(draft) !== JSON.stringify(saved);

  const save = useMutation({
    mutationFn: () => api.user.updateCalendar(draft),
    onSuccess: (res) => {
      queryClient.setQueryData(USER_KEY, res.user);
      notify.success(CALENDAR_MESSAGES.saved);
    },
    onError: (e) => notify.error(errorMessage(e, 'Could not save your calendar settings. Please try again.')),
  });

  const setDay = (day: Weekday, on: boolean, start?: string, end?: string) => {
    const current = draft.weeklyHours[day][0] ?? { start: '09:00', end: '17:00' };
    setDraft({
      ...draft,
      weeklyHours: { ...draft.weeklyHours, [day]: on ? [{ start: start ?? current.start, end: end ?? current.end }] : [] },
    });
  };

  return (
    <div className={styles.root} data-testid="profile-calendar">
      <Subtitle2 as="h3">Calendar</Subtitle2>
      <div className={styles.row}>
        <Field label="Time zone">
          <Select value={draft.timezone} onChange={(_, d) => setDraft({ ...draft, timezone: d.value })} data-testid="calendar-timezone">
            {zones.map((z) => (
              <option key={z} value={z}>
                {z}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Meeting length">
          <Select
            value={String(draft.meetingLength)}
            onChange={(_, d) => setDraft({ ...draft, meetingLength: Number(d.value) })}
            data-testid="calendar-meeting-length"
          >
            {MEETING_LENGTHS.map((m) => (
              <option key={m} value={m}>
                {m} minutes
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <Field label="Weekly hours" validationMessage={problem ?? undefined}>
        <div className={styles.days} data-testid="calendar-weekly-hours">
          {WEEKDAYS.map((day) => {
            const p = draft.weeklyHours[day][0];
            return (
              <div key={day} style={{ display: 'contents' }}>
                <Checkbox
                  label={LABEL[day]}
                  checked={Boolean(p)}
                  onChange={(_, d) => setDay(day, Boolean(d.checked))}
                  data-testid={`calendar-${day}`}
                />
                <Input
                  type="time"
                  aria-label={`${LABEL[day]} from`}
                  value={p?.start ?? ''}
                  disabled={!p}
                  onChange={(_, d) => setDay(day, true, d.value, undefined)}
                  data-testid={`calendar-${day}-start`}
                />
                <Input
                  type="time"
                  aria-label={`${LABEL[day]} to`}
                  value={p?.end ?? ''}
                  disabled={!p}
                  onChange={(_, d) => setDay(day, true, undefined, d.value)}
                  data-testid={`calendar-${day}-end`}
                />
              </div>
            );
          })}
        </div>
      </Field>
      <div className={styles.actions}>
        <Button
          appearance="primary"
          disabled={!dirty || Boolean(problem) || save.isPending}
          icon={save.isPending ? <Spinner aria-hidden size="tiny" /> : undefined}
          onClick={() => save.mutate()}
          data-testid="calendar-save"
        >
          Save calendar
        </Button>
      </div>
    </div>
  );
}
