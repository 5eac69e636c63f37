import { Link } from 'react-router';
import { Badge, Text, Title2, makeStyles, tokens } from '@fluentui/react-components';
import { useUser } from '../../session/hooks/useSession';
import { visibleNavItems } from '../../shell/navigation';
import { isComingSoon } from '../../shell/areas';

const DESCRIPTIONS: Record<string, string> = {
  lists: 'Build lists of candidate companies and score them.',
  companies: 'Your companies, their fields, enrichments and activities.',
  contacts: 'The people you reach, linked to their companies.',
  enrichments: 'AI enrichments that fill fields for companies, contacts and ideas.',
  playbook: 'Plays that generate AI emails for your contacts.',
  profile: 'Your name and your settings.',
  organization: 'Users, roles, invitations and seats.',
};

const useStyles = makeStyles({
  root: { maxWidth: '1040px', margin: '0 auto', display: 'flex', flexDirection: 'column', gap: '20px' },
  muted: { color: tokens.colorNeutralForeground2 },
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))', gap: '16px' },
  card: {
    display: 'flex',
    flexDirection: 'column',
    gap: '8px',
    padding: '18px',
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow4,
    color: tokens.colorNeutralForeground1,
    textDecorationLine: 'none',
    ':hover': { boxShadow: tokens.shadow8 },
    ':focus-visible': { outlineWidth: '2px', outlineStyle: 'solid', outlineColor: tokens.colorStrokeFocus2 },
  },
  cardHead: { display: 'flex', alignItems: 'center', gap: '10px' },
  icon: { fontSize: '24px', color: tokens.colorBrandForeground1 },
  title: {
    fontWeight: tokens.fontWeightSemibold,
    fontSize: tokens.fontSizeBase400,
    flexGrow: 1,
    minWidth: 0,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  },
  badge: { flexShrink: 0, whiteSpace: 'nowrap' },
});

export default function HomePage() {
  const styles = useStyles();
  const user = useUser();
  return (
    <div className={styles.root} data-testid="home-page">
      <div className="ds-intro">
        <Title2 as="h1" block>
          Welcome, {user.firstName || user.email}
        </Title2>
        <Text as="p" block className={styles.muted}>
          Pick an area to work in.
        </Text>
      </div>
      <div className={styles.grid}>
        {visibleNavItems(user.isAdmin).map((item) => {
          const Icon = item.icon;
          return (
            <Link key={item.key} to={item.path} className={styles.card} data-testid={`home-card-${item.key}`}>
              <div className={styles.cardHead}>
                <Icon className={styles.icon} aria-hidden />
                <span className={styles.title}>{item.label}</span>
                {isComingSoon(item.key) && (
                  <Badge appearance="tint" color="informative" size="small" className={styles.badge} data-testid="home-coming-soon">
                    Coming soon
                  </Badge>
                )}
              </div>
              <Text className={styles.muted}>{DESCRIPTIONS[item.key]}</Text>
            </Link>
          );
        })}
      </div>
    </div>
  );
}
