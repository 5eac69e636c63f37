// The common body of the CRM cards (spec 001 §2: CRM (salesforce) and contact-graph CRM (affinity):
// buttons Connect or Settings; account, created by, created and expires). Each provider's card
// (SalesforceCard, AffinityCard) supplies its connect form and its settings extras.
import { useEffect, useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Badge,
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Spinner,
  Subtitle2,
  Text,
  Tooltip,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { ArrowSyncRegular, PlugConnectedRegular, SettingsRegular } from '@fluentui/react-icons';
import { type CrmProvider, type IntegrationDto } from '../../contracts';
import { CRM_MESSAGES, CRM_NAMES } from '../../domain';
import { useApi } from '../ApiContext';
import { useNotify } from '../toast';
import { ConfirmDialog } from '../ConfirmDialog';
import { FailureNotice, connectNextStep, useKeptFailure } from '../FailureNotice';
import { serverMessage } from '../server-message';
import { useModalSurfaceStyle } from '../PluginMode';
import { INTEGRATIONS_QUERY_KEY, formatAiDate } from '../llm/AiProviderCard';
import { crmCardState } from './state';
import { CrmSyncSettings } from './CrmSyncSettings';
import { CrmSyncProgress } from './CrmSyncProgress';

export const CRM_CARD_TEXT = {
  connect: 'Connect',
  settings: 'Settings',
  connected: 'Connected',
  paused: 'Paused',
  notConnected: 'Not connected',
  askAdmin: CRM_MESSAGES.askAdmin,
  blocked: (other: string) => `${other} is the active CRM. Disconnect it to use this one.`,
  never: 'Never',
  loadFailed: 'Integration data not found',
  mapping: 'Field mapping and sync',
  connectFailed: (crm: string) => `${crm} was not connected`,
} as const;

/** Where a CRM's last failed connect is kept until the admin acts (see FailureNotice). */
export const crmConnectFailureKey = (provider: CrmProvider) => `${provider}-connect`;

export const useCrmCardStyles = makeStyles({
  card: {
    display: 'flex',
    flexDirection: 'column',
    gap: '12px',
    padding: '16px 20px',
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  head: { display: 'flex', alignItems: 'center', gap: '10px', flexWrap: 'wrap' },
  grow: { flexGrow: 1 },
  facts: { display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: '16px', rowGap: '4px', margin: 0 },
  term: { color: tokens.colorNeutralForeground2 },
  muted: { color: tokens.colorNeutralForeground2 },
  form: { display: 'flex', flexDirection: 'column', gap: '10px' },
  actions: { display: 'flex', justifyContent: 'flex-end', gap: '8px', flexWrap: 'wrap' },
});

function personName(i: IntegrationDto): string {
  const c = i.data.createdBy;
  return c ? `${c.firstName} ${c.lastName}`.trim() : '—';
}

/** Account, created by, created and expires (and what the provider adds). */
export function CrmFacts({ integration, provider, extra }: { integration: IntegrationDto; provider: CrmProvider; extra?: ReactNode }) {
  const styles = useCrmCardStyles();
  return (
    <dl className={styles.facts} data-testid={`${provider}-details`}>
      <dt className={styles.term}>Account</dt>
      <dd style={{ margin: 0 }} data-testid={`${provider}-account`}>
        {integration.data.metadata.name ?? integration.data.name}
      </dd>
      <dt className={styles.term}>Created by</dt>
      <dd style={{ margin: 0 }} data-testid={`${provider}-created-by`}>
        {personName(integration)}
      </dd>
      <dt className={styles.term}>Created</dt>
      <dd style={{ margin: 0 }} data-testid={`${provider}-created-at`}>
        {formatAiDate(integration.data.createdAt)}
      </dd>
      <dt className={styles.term}>Expires</dt>
      <dd style={{ margin: 0 }} data-testid={`${provider}-expires-at`}>
        {formatAiDate(integration.data.expiresAt)}
      </dd>
      {extra}
    </dl>
  );
}

export function useRefreshIntegrations() {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: INTEGRATIONS_QUERY_KEY }),
      queryClient.invalidateQueries({ queryKey: ['organization'] }),
    ]);
  };
}

export interface CrmCardFrameProps {
  provider: CrmProvider;
  icon: ReactNode;
  title: string;
  isAdmin: boolean;
  /** The connect form, shown in a dialog; `close` after success. */
  renderConnect: (close: () => void) => ReactNode;
  /** Provider-specific facts and actions inside the Settings dialog. */
  renderSettings?: (integration: IntegrationDto, close: () => void) => ReactNode;
  settingsFacts?: (integration: IntegrationDto) => ReactNode;
}

export function CrmCardFrame({ provider, icon, title, isAdmin, renderConnect, renderSettings, settingsFacts }: CrmCardFrameProps) {
  const styles = useCrmCardStyles();
  const api = useApi();
  const notify = useNotify();
  const refresh = useRefreshIntegrations();
  const surface = useModalSurfaceStyle();
  const [open, setOpen] = useState<'connect' | 'settings' | 'mapping' | null>(null);
  const [confirming, setConfirming] = useState(false);
  const integrations = useQuery({ queryKey: INTEGRATIONS_QUERY_KEY, queryFn: async () => (await api.llm.integrations()).integrations });
  const state = crmCardState(integrations.data ?? [], provider);
  const integration = state.integration;
  const name = CRM_NAMES[provider];
  const disabled = !isAdmin || state.blockedBy !== null;
  const [failure, forgetFailure] = useKeptFailure(crmConnectFailureKey(provider));
  const connectedNow = Boolean(integration?.data.active && integration.data.metadata.username);
  // A connection that went through answers the failure before it.
  useEffect(() => {
    if (connectedNow && failure && integration && Date.parse(integration.data.createdAt) >= Date.parse(failure.at)) forgetFailure();
  }, [connectedNow, failure, integration, forgetFailure]);
  const button = (
    <Button
      appearance={state.action === 'connect' ? 'primary' : 'secondary'}
      icon={state.action === 'settings' ? <SettingsRegular /> : undefined}
      disabled={disabled || !integrations.isSuccess}
      onClick={() => setOpen(state.action)}
      data-testid={`${provider}-${state.action}`}
    >
      {state.action === 'connect' ? CRM_CARD_TEXT.connect : CRM_CARD_TEXT.settings}
    </Button>
  );

  return (
    <section className={styles.card} aria-label={title} data-testid={`${provider}-card`}>
      <div className={styles.head}>
        {icon}
        <Subtitle2 as="h3" className={styles.grow}>
          {title}
        </Subtitle2>
        {integration?.data.active && (
          <Badge appearance="tint" color="success" icon={<PlugConnectedRegular />} data-testid={`${provider}-connected`}>
            {CRM_CARD_TEXT.connected}
          </Badge>
        )}
        {integration && !integration.data.active && integration.data.metadata.username && (
          <Badge appearance="tint" color="warning" data-testid={`${provider}-paused`}>
            {CRM_CARD_TEXT.paused}
          </Badge>
        )}
        {state.blockedBy && isAdmin ? (
          <Tooltip content={CRM_CARD_TEXT.blocked(state.blockedBy)} relationship="description">
            {button}
          </Tooltip>
        ) : (
          button
        )}
      </div>
      {failure && !connectedNow && (
        <FailureNotice
          title={CRM_CARD_TEXT.connectFailed(name)}
          failure={failure}
          nextStep={connectNextStep(name, failure.message)}
          onDismiss={forgetFailure}
          onRetry={
            isAdmin && state.action === 'connect' && !state.blockedBy
              ? () => {
                  forgetFailure();
                  setOpen('connect');
                }
              : undefined
          }
          data-testid={`${provider}-connect-failure`}
        />
      )}
      {integrations.isPending && <Spinner size="tiny" label="Loading…" />}
      {integrations.isError && (
        <Text role="alert" data-testid={`${provider}-load-error`}>
          {CRM_CARD_TEXT.loadFailed}
        </Text>
      )}
      {integration && integration.data.metadata.username && <CrmFacts integration={integration} provider={provider} />}
      {integration?.data.active && <CrmSyncProgress provider={provider} />}
      {integrations.isSuccess && !integration?.data.metadata.username && (
        <Text className={styles.muted} data-testid={`${provider}-status`}>
          {CRM_CARD_TEXT.notConnected}
        </Text>
      )}
      {state.blockedBy && (
        <Text className={styles.muted} data-testid={`${provider}-blocked`}>
          {CRM_CARD_TEXT.blocked(state.blockedBy)}
        </Text>
      )}
      {!isAdmin && (
        <Text className={styles.muted} data-testid={`${provider}-ask-admin`}>
          {CRM_CARD_TEXT.askAdmin}
        </Text>
      )}

      <Dialog
        open={open === 'connect'}
        onOpenChange={(_, d) => {
          if (!d.open) setOpen(null);
        }}
      >
        <DialogSurface style={surface}>
          <DialogBody>
            <DialogTitle>Connect {name}</DialogTitle>
            <DialogContent>{open === 'connect' && renderConnect(() => setOpen(null))}</DialogContent>
          </DialogBody>
        </DialogSurface>
      </Dialog>

      <Dialog
        open={open === 'settings'}
        onOpenChange={(_, d) => {
          if (!d.open) setOpen(null);
        }}
      >
        <DialogSurface style={surface} data-testid={`${provider}-settings-dialog`}>
          <DialogBody>
            <DialogTitle>{name} settings</DialogTitle>
            <DialogContent className={styles.form}>
              {integration && (
                <CrmFacts integration={integration} provider={`${provider}-settings` as CrmProvider} extra={settingsFacts?.(integration)} />
              )}
              {integration && renderSettings?.(integration, () => setOpen(null))}
              <div>
                <Button icon={<ArrowSyncRegular />} onClick={() => setOpen('mapping')} data-testid={`${provider}-mapping`}>
                  {CRM_CARD_TEXT.mapping}
                </Button>
              </div>
            </DialogContent>
            <DialogActions>
              <Button
                onClick={() => {
                  setOpen(null);
                  setConfirming(true);
                }}
                data-testid={`${provider}-disconnect`}
              >
                Disconnect
              </Button>
              <Button appearance="primary" onClick={() => setOpen(null)}>
                Close
              </Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>

      <Dialog
        open={open === 'mapping'}
        onOpenChange={(_, d) => {
          if (!d.open) setOpen(null);
        }}
      >
        <DialogSurface style={{ ...surface, maxWidth: '860px', width: '100%' }} data-testid={`${provider}-mapping-dialog`}>
          <DialogBody>
            <DialogTitle>
              {name}: {CRM_CARD_TEXT.mapping.toLowerCase()}
            </DialogTitle>
            {open === 'mapping' && (
              <CrmSyncSettings isAdmin={isAdmin} dialog={{ onBack: () => setOpen('settings'), onClose: () => setOpen(null) }} />
            )}
          </DialogBody>
        </DialogSurface>
      </Dialog>

      <ConfirmDialog
        open={confirming}
        type="delete"
        title={`Disconnect ${name} ?`}
        message={`Dealscout stops reading from and writing to ${name}. Records already synced stay in Dealscout.`}
        confirmLabel="Yes, Disconnect"
        onCancel={() => setConfirming(false)}
        onConfirm={async () => {
          if (!integration) return;
          try {
            await api.crm.remove(integration.id);
          } catch (e) {
            throw new Error(serverMessage(e) ?? `Could not disconnect ${name}. Please try again.`, { cause: e });
          }
          setConfirming(false);
          setOpen(null);
          notify.success(`${name} disconnected`);
          await refresh();
        }}
        data-testid={`${provider}-disconnect-dialog`}
      />
    </section>
  );
}
