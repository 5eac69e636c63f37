// A small dialog asking for one name (New List, Rename list).
import { useEffect, useState } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
} from '@fluentui/react-components';
import { LIST_MESSAGES, LIST_NAME_MAX } from '../../domain';
import { useModalSurfaceStyle } from '../PluginMode';

export function NameDialog(props: {
  open: boolean;
  title: string;
  initial?: string;
  confirmLabel: string;
  onSave: (name: string) => Promise<void>;
  onClose: () => void;
}) {
  const [name, setName] = useState(props.initial ?? '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const surface = useModalSurfaceStyle();
  useEffect(() => {
    if (props.open) {
      setName(props.initial ?? '');
      setError(null);
    }
  }, [props.open, props.initial]);
  const save = async () => {
    const trimmed = name.trim();
    if (!trimmed) return setError(LIST_MESSAGES.listNameRequired);
    if (trimmed.length > LIST_NAME_MAX) return setError(LIST_MESSAGES.listNameMax);
    setBusy(true);
    try {
      await props.onSave(trimmed);
      props.onClose();
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Could not save');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      open={props.open}
      onOpenChange={(_, d) => {
        if (!d.open) props.onClose();
      }}
    >
      <DialogSurface style={surface} data-testid="list-name-dialog">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <DialogBody>
            <DialogTitle>{props.title}</DialogTitle>
            <DialogContent>
              <Field label="Name" required validationMessage={error ?? undefined}>
                <Input
                  value={name}
                  maxLength={LIST_NAME_MAX + 1}
                  onChange={(_, d) => setName(d.value)}
                  placeholder="e.g. Vertical SaaS in Germany"
                  data-testid="list-name-input"
                  autoFocus
                />
              </Field>
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={props.onClose}>
                Cancel
              </Button>
              <Button appearance="primary" type="submit" disabled={busy} data-testid="list-name-save">
                {props.confirmLabel}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
