import { Link, useLocation } from 'react-router';
import { Button, Divider, Tooltip, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { PanelLeftContractRegular, PanelLeftExpandRegular } from '@fluentui/react-icons';
import { PRODUCT_NAME } from '@dealscout/shared/domain';
import { BrandMark } from '../../../components/BrandMark';
import { isNavItemActive, visibleNavItems, type NavItemDef } from '../navigation';

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexDirection: 'column',
    flexShrink: 0,
    width: '224px',
    height: '100%',
    boxSizing: 'border-box',
    padding: '12px 8px',
    gap: '2px',
    backgroundColor: tokens.colorNeutralBackground3,
    borderRight: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    transitionProperty: 'width',
    transitionDuration: tokens.durationFast,
    overflowX: 'hidden',
    overflowY: 'auto',
  },
  collapsed: { width: '60px' },
  logo: {
    display: 'flex',
    alignItems: 'center',
    gap: '10px',
    height: '40px',
    padding: '0 8px',
    marginBottom: '10px',
    textDecorationLine: 'none',
    color: tokens.colorNeutralForeground1,
    fontWeight: tokens.fontWeightSemibold,
    fontSize: tokens.fontSizeBase400,
    whiteSpace: 'nowrap',
    borderRadius: tokens.borderRadiusMedium,
    ':focus-visible': { outlineWidth: '2px', outlineStyle: 'solid', outlineColor: tokens.colorStrokeFocus2 },
  },
  item: {
    display: 'flex',
    alignItems: 'center',
    gap: '12px',
    height: '40px',
    flexShrink: 0,
    padding: '0 10px',
    borderRadius: tokens.borderRadiusMedium,
    color: tokens.colorNeutralForeground2,
    textDecorationLine: 'none',
    whiteSpace: 'nowrap',
    fontSize: tokens.fontSizeBase300,
    position: 'relative',
    ':hover': { backgroundColor: tokens.colorNeutralBackground3Hover, color: tokens.colorNeutralForeground1 },
    ':focus-visible': { outlineWidth: '2px', outlineStyle: 'solid', outlineColor: tokens.colorStrokeFocus2 },
  },
  active: {
    backgroundColor: tokens.colorNeutralBackground1,
    color: tokens.colorBrandForeground1,
    fontWeight: tokens.fontWeightSemibold,
    boxShadow: tokens.shadow2,
    ':hover': { backgroundColor: tokens.colorNeutralBackground1, color: tokens.colorBrandForeground1 },
    '::before': {
      content: '""',
      position: 'absolute',
      left: '0',
      top: '10px',
      bottom: '10px',
      width: '3px',
      borderRadius: '2px',
      backgroundColor: tokens.colorBrandBackground,
    },
  },
  // Spec 000 §9 'Icon size presets': nav 25.
  icon: { fontSize: '25px', flexShrink: 0 },
  divider: { margin: '8px 4px', flexGrow: 0 },
  spacer: { flexGrow: 1 },
  toggle: {
    justifyContent: 'flex-start',
    minWidth: 0,
    padding: '0 8px',
    height: '40px',
    gap: '12px',
    whiteSpace: 'nowrap',
    fontWeight: tokens.fontWeightRegular,
    flexShrink: 0,
  },
});

function NavLinkItem({ item, active, expanded }: { item: NavItemDef; active: boolean; expanded: boolean }) {
  const styles = useStyles();
  const Icon = active ? item.activeIcon : item.icon;
  const link = (
    <Link
      to={item.path}
      className={mergeClasses(styles.item, active && styles.active)}
      aria-current={active ? 'page' : undefined}
      aria-label={item.label}
      data-testid={`nav-${item.key}`}
      data-active={active ? 'true' : 'false'}
    >
      <Icon className={styles.icon} aria-hidden />
      {expanded && <span>{item.label}</span>}
    </Link>
  );
  if (expanded) return link;
  return (
    <Tooltip content={item.label} relationship="description" positioning="after" withArrow>
      {link}
    </Tooltip>
  );
}

export function NavMenu({ expanded, isAdmin, onToggle }: { expanded: boolean; isAdmin: boolean; onToggle: () => void }) {
  const styles = useStyles();
  const { pathname } = useLocation();
  const toggleLabel = expanded ? 'Collapse navigation' : 'Expand navigation';
  return (
    <nav
      className={mergeClasses(styles.root, !expanded && styles.collapsed)}
      aria-label="Main navigation"
      data-testid="app-nav"
      data-expanded={expanded ? 'true' : 'false'}
    >
      <Link to="/" className={styles.logo} aria-label={`${PRODUCT_NAME} home`} data-testid="nav-logo">
        <BrandMark size={28} />
        {expanded && <span>{PRODUCT_NAME}</span>}
      </Link>
      {visibleNavItems(isAdmin).map((item) => (
        <div key={item.key} style={{ display: 'contents' }}>
          {item.separatorAbove && <Divider className={styles.divider} role="separator" data-testid={`nav-separator-before-${item.key}`} />}
          <NavLinkItem item={item} active={isNavItemActive(item, pathname)} expanded={expanded} />
        </div>
      ))}
      <div className={styles.spacer} />
      <Tooltip content={toggleLabel} relationship="label" positioning="after">
        <Button
          appearance="subtle"
          className={styles.toggle}
          icon={expanded ? <PanelLeftContractRegular className={styles.icon} /> : <PanelLeftExpandRegular className={styles.icon} />}
          onClick={onToggle}
          aria-expanded={expanded}
          data-testid="nav-toggle"
        >
          {expanded ? 'Collapse' : undefined}
        </Button>
      </Tooltip>
    </nav>
  );
}
