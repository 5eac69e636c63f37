// Confirm dialogs of spec 000 §2 'Other shared UI': types delete, warning and regenerate.
// Esc closes the dialog (Fluent's modal dialog), so does Cancel; the confirm action may be async.
import { useState, type ReactNode } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  MessageBar,
  MessageBarBody,
  Spinner,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { ArrowSyncRegular, DeleteRegular, WarningRegular } from '@fluentui/react-icons';
import { useModalSurfaceStyle } from './PluginMode';

export type ConfirmDialogType = 'delete' | 'warning' | 'regenerate';

export interface ConfirmDialogProps {
  open: boolean;
  type: ConfirmDialogType;
  title: string;
  message: ReactNode;
  /** Label of the confirm button; defaults per type: Delete, Continue, Regenerate. */
  confirmLabel?: string;
  cancelLabel?: string;
  /** May return a promise; the dialog shows a spinner until it settles and shows a thrown error's message. */
  onConfirm: () => void | Promise<void>;
  /** Called when the dialog is dismissed (Cancel, Esc, close). */
  onCancel: () => void;
  /** Optional content between the message and the actions (e.g. a select). */
  children?: ReactNode;
  /** Disables the confirm button (e.g. nothing selected yet). */
  confirmDisabled?: boolean;
  'data-testid'?: string;
}

const DEFAULT_LABEL: Record<ConfirmDialogType, string> = { delete: 'Delete', warning: 'Continue', regenerate: 'Regenerate' };

const useStyles = makeStyles({
  title: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  deleteIcon: { color: tokens.colorPaletteRedForeground1, fontSize: '20px' },
  warningIcon: { color: tokens.colorPaletteDarkOrangeForeground1, fontSize: '20px' },
  regenerateIcon: { color: tokens.colorBrandForeground1, fontSize: '20px' },
  danger: {
    backgroundColor: tokens.colorPaletteRedBackground3,
    color: tokens.colorNeutralForegroundOnBrand,
    ':hover': { backgroundColor: tokens.colorPaletteRedForeground1, color: tokens.colorNeutralForegroundOnBrand },
    ':hover:active': { backgroundColor: tokens.colorPaletteRedForeground1, color: tokens.colorNeutralForegroundOnBrand },
  },
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
});

export function ConfirmDialog(props: ConfirmDialogProps) {
  const { open, type, title, message, onConfirm, onCancel, children } = props;
  const styles = useStyles();
  const surfaceStyle = useModalSurfaceStyle();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const icon =
    type === 'delete' ? (
      <DeleteRegular className={styles.deleteIcon} />
    ) : type === 'warning' ? (
      <WarningRegular className={styles.warningIcon} />
    ) : (
      <ArrowSyncRegular className={styles.regenerateIcon} />
    );

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
    } catch (e) {
      setError(e instanceof Error && e.message ? e.message : 'Something went wrong. Please try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      modalType="modal"
      onOpenChange={(_, data) => {
        if (!data.open && !busy) {
          setError(null);
          onCancel();
        }
      }}
    >
      <DialogSurface style={surfaceStyle} data-testid={props['data-testid'] ?? 'confirm-dialog'} data-confirm-type={type}>
        <DialogBody>
          <DialogTitle>
            <span className={styles.title}>
              {icon}
              {title}
            </span>
          </DialogTitle>
          <DialogContent className={styles.content}>
            <div>{message}</div>
            {children}
            {error && (
              <MessageBar intent="error">
                <MessageBarBody>{error}</MessageBarBody>
              </MessageBar>
            )}
          </DialogContent>
          <DialogActions fluid style={{ justifyContent: 'flex-end', marginTop: 8 }}>
            <Button
              appearance="secondary"
              disabled={busy}
              onClick={() => {
                setError(null);
                onCancel();
              }}
              data-testid="confirm-dialog-cancel"
            >
              {props.cancelLabel ?? 'Cancel'}
            </Button>
            <Button
              appearance="primary"
              className={type === 'delete' ? styles.danger : undefined}
              disabled={busy || props.confirmDisabled}
              icon={busy ? <Spinner aria-hidden size="tiny" /> : undefined}
              onClick={() => void confirm()}
              data-testid="confirm-dialog-confirm"
            >
              {props.confirmLabel ?? DEFAULT_LABEL[type]}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
