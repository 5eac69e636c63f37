// The draft panel's send actions (spec 000 §2 'Floating draft-email panels': Send Now, schedule,
// send test to self). Sending through Office 365 is issue 18: until it lands these are shown
// disabled and marked 'Coming soon'. The issue-18 branch replaces this file with the real
// controls; the props stay the same.
import { Button, Tooltip, makeStyles, tokens } from '@fluentui/react-components';
import { CalendarClockRegular, PersonMailRegular, SendRegular } from '@fluentui/react-icons';
import type { EmailDraftDto } from '../../contracts';

export interface DraftSendControlsProps {
  draft: EmailDraftDto;
  /** Called with the draft as the server answers after a send or schedule. */
  onChange?: (draft: EmailDraftDto) => void;
}

export const SENDING_COMING_SOON = 'Coming soon: sending through Office 365 arrives with the email integration.';

const useStyles = makeStyles({
  row: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  soon: { fontSize: tokens.fontSizeBase100, color: tokens.colorNeutralForeground3 },
});

export function DraftSendControls(_props: DraftSendControlsProps) {
  const styles = useStyles();
  return (
    <div className={styles.row} data-testid="draft-send-controls">
      <Tooltip content={SENDING_COMING_SOON} relationship="description">
        <Button appearance="primary" size="small" icon={<SendRegular />} disabledFocusable data-testid="draft-send-now">Send Now</Button>
      </Tooltip>
      <Tooltip content={SENDING_COMING_SOON} relationship="description">
        <Button size="small" icon={<CalendarClockRegular />} disabledFocusable aria-label="Schedule" data-testid="draft-schedule" />
      </Tooltip>
      <Tooltip content={SENDING_COMING_SOON} relationship="description">
        <Button size="small" icon={<PersonMailRegular />} disabledFocusable aria-label="Send test to self" data-testid="draft-send-test" />
      </Tooltip>
      <span className={styles.soon} data-testid="draft-send-coming-soon">Coming soon</span>
    </div>
  );
}
