import { Button, Card, FormGroup, HTMLSelect, HTMLTable, Intent, NonIdealState, Spinner } from '@blueprintjs/core';
import { type ReactElement, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  ComposedChart,
  Legend,
  Line,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { ROUTES } from '../../../app/route-paths.js';
import { ErrorCallout } from '../../../shared/ui/error-callout.js';
import { PageFrame } from '../../../shared/ui/page-frame.js';
import { QueryTabs } from '../../../shared/ui/query-tabs.js';
import { useQueryValues } from '../../../shared/ui/use-query-values.js';
import { formatGb, formatHectares, formatMoney } from '../../billing/billing-format.js';
import { type Statistics, useStatistics } from '../subscriptions/subscriptions.api.js';
import '../../billing/billing.css';

/** Blueprint's palette, one colour per series. */
const COLORS = ['#2D72D2', '#238551', '#C87619', '#7961DB', '#00A396', '#CD4246', '#D1980B', '#634DBF'];
const AXIS = { fontSize: 12, fill: 'currentColor' };

/** A period (YYYY-MM-DD, its first day) as the axis shows it: a day, or a month. */
function periodLabel(period: string, interval: 'day' | 'month', language: string): string {
  const d = new Date(`${period}T00:00:00Z`);
  return interval === 'day'
    ? d.toLocaleDateString(language, { day: '2-digit', month: 'short', timeZone: 'UTC' })
    : d.toLocaleDateString(language, { month: 'short', year: 'numeric', timeZone: 'UTC' });
}

function ChartCard({
  title,
  children,
  testId,
  empty,
}: {
  title: string;
  children: ReactNode;
  testId: string;
  /** Shown instead of the chart when there is nothing to draw. */
  empty?: ReactNode;
}) {
  return (
    <Card className="nu-stats__card" data-testid={testId}>
      <div className="nu-stats__chart">
        <h3>{title}</h3>
        {empty ?? (
          <ResponsiveContainer width="100%" height="88%">
            {children as ReactElement}
          </ResponsiveContainer>
        )}
      </div>
    </Card>
  );
}

/**
 * A count per period as bars (left axis) with its running total as a line
 * (right axis). A plain function, not a component: `ResponsiveContainer`
 * sizes the chart element it is handed directly.
 */
function addedAndTotal(
  rows: ReadonlyArray<Record<string, string | number>>,
  key: 'users' | 'projects',
  barColor: string,
  lineColor: string,
  addedName: string,
  totalName: string,
): ReactElement {
  return (
    <ComposedChart data={rows as Array<Record<string, string | number>>}>
      <CartesianGrid strokeDasharray="3 3" opacity={0.4} />
      <XAxis dataKey="period" tick={AXIS} />
      <YAxis yAxisId="added" allowDecimals={false} tick={AXIS} />
      <YAxis yAxisId="total" orientation="right" allowDecimals={false} tick={AXIS} />
      <Tooltip />
      <Legend />
      <Bar isAnimationActive={false} yAxisId="added" dataKey={key} name={addedName} fill={barColor} />
      <Line
        isAnimationActive={false}
        yAxisId="total"
        dataKey={`${key}Total`}
        name={totalName}
        stroke={lineColor}
        dot={false}
        strokeWidth={2}
      />
    </ComposedChart>
  );
}

function Kpi({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Card className="nu-stats__kpi">
      <div className="nu-muted">{label}</div>
      <div className="nu-stats__kpi-value" data-testid={testId}>
        {value}
      </div>
    </Card>
  );
}

function Overview({ stats }: { stats: Statistics }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const label = (p: string) => periodLabel(p, stats.interval, lang);
  const rows = stats.users.map((u, i) => ({
    period: label(u.period),
    users: u.added,
    usersTotal: u.total,
    projects: stats.projects[i]?.added ?? 0,
    projectsTotal: stats.projects[i]?.total ?? 0,
    hectares: stats.hectaresProcessed[i]?.hectares ?? 0,
    success: stats.processing[i]?.success ?? 0,
    failure: stats.processing[i]?.failure ?? 0,
  }));
  const hectaresTotal = stats.hectaresProcessed.reduce((s, h) => s + h.hectares, 0);
  const layers = stats.storage.byLayer
    .filter((l) => l.bytes > 0)
    .map((l) => ({ name: t(`billing:statistics.layers.${l.layer}`, { defaultValue: l.layer }), value: l.bytes }));
  return (
    <>
      <div className="nu-stats__kpis">
        <Kpi label={t('billing:statistics.kpi.users')} value={String(stats.totals.users)} testId="kpi-users" />
        <Kpi label={t('billing:statistics.kpi.projects')} value={String(stats.totals.projects)} testId="kpi-projects" />
        <Kpi
          label={t('billing:statistics.kpi.hectares')}
          value={formatHectares(hectaresTotal, lang)}
          testId="kpi-hectares"
        />
        <Kpi
          label={t('billing:statistics.kpi.storage')}
          value={formatGb(stats.storage.totalBytes, lang)}
          testId="kpi-storage"
        />
      </div>
      <div className="nu-stats__grid">
        <ChartCard title={t('billing:statistics.usersOverTime')} testId="chart-users">
          {addedAndTotal(
            rows,
            'users',
            COLORS[0]!,
            COLORS[2]!,
            t('billing:statistics.added'),
            t('billing:statistics.total'),
          )}
        </ChartCard>
        <ChartCard title={t('billing:statistics.projectsOverTime')} testId="chart-projects">
          {addedAndTotal(
            rows,
            'projects',
            COLORS[4]!,
            COLORS[3]!,
            t('billing:statistics.added'),
            t('billing:statistics.total'),
          )}
        </ChartCard>
        <ChartCard title={t(`billing:statistics.hectaresPer.${stats.interval}`)} testId="chart-hectares">
          <BarChart data={rows}>
            <CartesianGrid strokeDasharray="3 3" opacity={0.4} />
            <XAxis dataKey="period" tick={AXIS} />
            <YAxis tick={AXIS} />
            <Tooltip formatter={(v) => formatHectares(Number(v), lang)} />
            <Bar
              isAnimationActive={false}
              dataKey="hectares"
              name={t('billing:statistics.hectares')}
              fill={COLORS[1]}
            />
          </BarChart>
        </ChartCard>
        <ChartCard title={t('billing:statistics.processing')} testId="chart-processing">
          <BarChart data={rows}>
            <CartesianGrid strokeDasharray="3 3" opacity={0.4} />
            <XAxis dataKey="period" tick={AXIS} />
            <YAxis allowDecimals={false} tick={AXIS} />
            <Tooltip />
            <Legend />
            <Bar
              isAnimationActive={false}
              dataKey="success"
              stackId="p"
              name={t('billing:statistics.success')}
              fill={COLORS[1]}
            />
            <Bar
              isAnimationActive={false}
              dataKey="failure"
              stackId="p"
              name={t('billing:statistics.failure')}
              fill={COLORS[5]}
            />
          </BarChart>
        </ChartCard>
        <ChartCard
          title={t('billing:statistics.storage')}
          testId="chart-storage"
          empty={
            layers.length === 0 ? (
              <NonIdealState icon="database" title={t('billing:statistics.noStorage')} />
            ) : undefined
          }
        >
          <PieChart>
            <Pie
              isAnimationActive={false}
              data={layers}
              dataKey="value"
              nameKey="name"
              outerRadius="75%"
              label={(e) => formatGb(Number(e.value), lang)}
            >
              {layers.map((l, i) => (
                <Cell key={l.name} fill={COLORS[i % COLORS.length]} />
              ))}
            </Pie>
            <Tooltip formatter={(v) => formatGb(Number(v), lang)} />
            <Legend />
          </PieChart>
        </ChartCard>
        <Card className="nu-stats__card" data-testid="top-storage">
          <h3>{t('billing:statistics.topUsers')}</h3>
          {stats.storage.topUsers.length === 0 && (
            <NonIdealState icon="person" title={t('billing:statistics.noStorage')} />
          )}
          <HTMLTable compact striped>
            <tbody>
              {stats.storage.topUsers.map((u) => (
                <tr key={u.userId}>
                  <td>{u.email}</td>
                  <td>{formatGb(u.bytes, lang)}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </Card>
      </div>
    </>
  );
}

function SubscriptionsTab({ stats }: { stats: Statistics }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const perTemplate = stats.subscriptionsPerTemplate.map((s) => ({
    ...s,
    label: `${s.name} (${t(`billing:category.${s.category}`)})`,
  }));
  const currencies = [...new Set(stats.revenue.map((r) => r.currency))];
  const byPeriod = new Map<string, Record<string, number | string>>();
  for (const u of stats.users) byPeriod.set(u.period, { period: periodLabel(u.period, stats.interval, lang) });
  for (const r of stats.revenue) {
    const row = byPeriod.get(r.period) ?? { period: periodLabel(r.period, stats.interval, lang) };
    row[r.currency] = r.amount / 100;
    byPeriod.set(r.period, row);
  }
  const revenueRows = [...byPeriod.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, v]) => v);
  const totals = currencies.map((c) => ({
    currency: c,
    amount: stats.revenue.filter((r) => r.currency === c).reduce((s, r) => s + r.amount, 0),
    payments: stats.revenue.filter((r) => r.currency === c).reduce((s, r) => s + r.payments, 0),
  }));
  return (
    <>
      <div className="nu-stats__kpis">
        <Kpi
          label={t('billing:statistics.kpi.activeSubscriptions')}
          value={String(stats.totals.activeSubscriptions)}
          testId="kpi-active"
        />
        <Kpi
          label={t('billing:statistics.kpi.creditsAvailable')}
          value={formatHectares(stats.totals.creditsAvailable, lang)}
          testId="kpi-credits"
        />
        {totals.length === 0 && <Kpi label={t('billing:statistics.kpi.revenue')} value="—" testId="kpi-revenue" />}
        {totals.map((x) => (
          <Kpi
            key={x.currency}
            label={t('billing:statistics.kpi.revenueCount', { count: x.payments })}
            value={formatMoney(x.amount, x.currency, lang)}
            testId={`kpi-revenue-${x.currency}`}
          />
        ))}
      </div>
      <div className="nu-stats__grid">
        <ChartCard title={t('billing:statistics.perTemplate')} testId="chart-templates">
          <BarChart data={perTemplate} layout="vertical" margin={{ left: 40 }}>
            <CartesianGrid strokeDasharray="3 3" opacity={0.4} />
            <XAxis type="number" allowDecimals={false} tick={AXIS} />
            <YAxis type="category" dataKey="label" width={160} tick={AXIS} />
            <Tooltip />
            <Legend />
            <Bar
              isAnimationActive={false}
              dataKey="active"
              stackId="s"
              name={t('billing:status.active')}
              fill={COLORS[1]}
            />
            <Bar
              isAnimationActive={false}
              dataKey="inactive"
              stackId="s"
              name={t('billing:status.inactive')}
              fill={COLORS[6]}
            />
            <Bar
              isAnimationActive={false}
              dataKey="suspended"
              stackId="s"
              name={t('billing:status.suspended')}
              fill={COLORS[5]}
            />
            <Bar
              isAnimationActive={false}
              dataKey="unsubscribed"
              stackId="s"
              name={t('billing:status.unsubscribed')}
              fill="#8F99A8"
            />
          </BarChart>
        </ChartCard>
        <ChartCard
          title={t(`billing:statistics.revenuePer.${stats.interval}`)}
          testId="chart-revenue"
          empty={
            currencies.length === 0 ? (
              <NonIdealState icon="dollar" title={t('billing:statistics.noRevenue')} />
            ) : undefined
          }
        >
          <BarChart data={revenueRows}>
            <CartesianGrid strokeDasharray="3 3" opacity={0.4} />
            <XAxis dataKey="period" tick={AXIS} />
            <YAxis tick={AXIS} />
            <Tooltip formatter={(v, name) => formatMoney(Number(v) * 100, String(name), lang)} />
            <Legend />
            {currencies.map((c, i) => (
              <Bar
                isAnimationActive={false}
                key={c}
                dataKey={c}
                name={c.toUpperCase()}
                fill={COLORS[i % COLORS.length]}
              />
            ))}
          </BarChart>
        </ChartCard>
      </div>
    </>
  );
}

const today = () => new Date().toISOString().slice(0, 10);
/** The default start: 12 months back by month (from the 1st), 30 days back by day (as the API). */
const defaultFrom = (interval: 'day' | 'month') => {
  const d = new Date();
  return interval === 'month'
    ? new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 11, 1)).toISOString().slice(0, 10)
    : new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - 29)).toISOString().slice(0, 10);
};

/** Admin: statistics with the tabs overview and subscriptions (route admin/statistics, query values tab, from, to, interval). */
export function AdminStatisticsPage() {
  const { t } = useTranslation();
  const [query, setQuery] = useQueryValues();
  const interval = query.interval === 'day' ? 'day' : 'month';
  const from = query.from ?? defaultFrom(interval);
  const to = query.to ?? today();
  const [draft, setDraft] = useState({ from, to, interval });
  const { data, error, isLoading } = useStatistics({ from, to, interval });
  const apply = () => setQuery({ from: draft.from, to: draft.to, interval: draft.interval });
  const range = (
    <form
      className="nu-stats__range"
      onSubmit={(e) => {
        e.preventDefault();
        apply();
      }}
      aria-label={t('billing:statistics.range')}
    >
      <FormGroup label={t('billing:statistics.from')} labelFor="stats-from">
        <input
          id="stats-from"
          className="bp6-input"
          type="date"
          value={draft.from}
          onChange={(e) => setDraft({ ...draft, from: e.currentTarget.value })}
        />
      </FormGroup>
      <FormGroup label={t('billing:statistics.to')} labelFor="stats-to">
        <input
          id="stats-to"
          className="bp6-input"
          type="date"
          value={draft.to}
          onChange={(e) => setDraft({ ...draft, to: e.currentTarget.value })}
        />
      </FormGroup>
      <FormGroup label={t('billing:statistics.interval')} labelFor="stats-interval">
        <HTMLSelect
          id="stats-interval"
          value={draft.interval}
          onChange={(e) => {
            const next = e.currentTarget.value as 'day' | 'month';
            // A new period size starts from its usual range, unless the admin chose dates.
            setDraft({ ...draft, interval: next, ...(query.from ? {} : { from: defaultFrom(next) }) });
          }}
          options={[
            { value: 'month', label: t('billing:statistics.byMonth') },
            { value: 'day', label: t('billing:statistics.byDay') },
          ]}
        />
      </FormGroup>
      <FormGroup>
        <Button type="submit" intent={Intent.PRIMARY} icon="refresh">
          {t('billing:statistics.apply')}
        </Button>
      </FormGroup>
    </form>
  );
  const body = (tab: 'overview' | 'subscriptions') => {
    if (error) return <ErrorCallout error={error} />;
    if (isLoading || !data) return <Spinner />;
    return tab === 'overview' ? <Overview stats={data} /> : <SubscriptionsTab stats={data} />;
  };
  return (
    <PageFrame
      title={t('admin:statistics.title')}
      breadcrumbs={[{ text: t('admin:title'), to: ROUTES.admin }, { text: t('admin:statistics.title') }]}
    >
      {range}
      <QueryTabs
        id="statistics-tabs"
        tabs={[
          { id: 'overview', title: t('admin:statistics.overview'), panel: body('overview') },
          { id: 'subscriptions', title: t('admin:statistics.subscriptions'), panel: body('subscriptions') },
        ]}
      />
    </PageFrame>
  );
}
