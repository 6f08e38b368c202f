import { useEffect, useRef } from 'preact/hooks';
import { ThemeToggle } from './components/theme-toggle';
import { TimeZoneNote } from './components/time-zone-note';
import { config } from './config';
import { BackfillsPage } from './pages/backfills';
import { DeadLettersPage } from './pages/dead-letters';
import { EnqueuePage } from './pages/enqueue';
import { EventsPage } from './pages/events';
import { FindPage } from './pages/find';
import { JobPage } from './pages/job';
import { JobsPage } from './pages/jobs';
import { LifecyclePage } from './pages/lifecycle';
import { OutboxPage } from './pages/outbox';
import { OverviewPage } from './pages/overview';
import { PayloadSearchPage } from './pages/payload-search';
import { SchedulesPage } from './pages/schedules';
import { Link, navigate, type Route, useRoute } from './router';

const NAV = [
  { to: '/', label: 'Overview', page: 'overview' },
  { to: '/jobs', label: 'Jobs', page: 'jobs' },
  { to: '/dead-letters', label: 'Dead letters', page: 'dead-letters' },
  { to: '/schedules', label: 'Schedules', page: 'schedules' },
  { to: '/events', label: 'Events', page: 'events' },
  { to: '/lifecycle', label: 'Lifecycle', page: 'lifecycle' },
  { to: '/backfills', label: 'Backfills', page: 'backfills' },
  ...(config.outbox ? [{ to: '/outbox', label: 'Outbox', page: 'outbox' } as const] : []),
  ...(config.readOnly ? [] : [{ to: '/enqueue', label: 'Add a job', page: 'enqueue' } as const]),
] as const;

const TITLES: Record<Route['page'], string> = {
  overview: 'Overview',
  jobs: 'Jobs',
  job: 'Job',
  'dead-letters': 'Dead letters',
  schedules: 'Schedules',
  events: 'Events',
  lifecycle: 'Lifecycle',
  backfills: 'Backfills',
  outbox: 'Outbox',
  find: 'Find a job',
  enqueue: 'Add a job',
  'not-found': 'Not found',
};

function Page({ route }: { readonly route: Route }) {
  switch (route.page) {
    case 'overview':
      return <OverviewPage />;
    case 'jobs':
      return route.query.get('where') ? (
        <PayloadSearchPage query={route.query} />
      ) : (
        <JobsPage query={route.query} />
      );
    case 'job':
      return <JobPage id={route.id} />;
    case 'dead-letters':
      return <DeadLettersPage query={route.query} />;
    case 'schedules':
      return <SchedulesPage query={route.query} />;
    case 'events':
      return <EventsPage query={route.query} />;
    case 'lifecycle':
      return <LifecyclePage query={route.query} />;
    case 'backfills':
      return <BackfillsPage query={route.query} />;
    case 'outbox':
      return <OutboxPage />;
    case 'find':
      return <FindPage id={route.id} />;
    case 'enqueue':
      return <EnqueuePage />;
    case 'not-found':
      return (
        <section>
          <h1>Not found</h1>
          <p>
            This dashboard has no such page. <Link to="/">Go to the overview</Link>.
          </p>
        </section>
      );
  }
}

/** Finds a job by its id, or a unique start or end of it, from every page; `/` focuses it. */
function IdSearch() {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      const typing = target?.closest('input, textarea, select, [contenteditable]') != null;
      if (event.key === '/' && !typing && !event.metaKey && !event.ctrlKey) {
        event.preventDefault();
        input.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const onSubmit = (event: Event) => {
    event.preventDefault();
    const id = input.current?.value.trim() ?? '';
    if (id !== '') navigate(`/find?${new URLSearchParams({ id })}`);
  };
  return (
    <search class="id-search">
      <form class="id-search-form" onSubmit={onSubmit}>
        <label for="job-id-search" class="visually-hidden">
          Find a job by its id, or the start or end of it
        </label>
        <input
          id="job-id-search"
          class="id-search-input"
          ref={input}
          type="search"
          placeholder="Job id or part  ( / )"
          autoComplete="off"
          spellcheck={false}
        />
        <button type="submit">Find</button>
      </form>
    </search>
  );
}

function Banners() {
  return (
    <div class="banners">
      {config.loopbackOnly ? (
        <p class="notice warn" data-testid="loopback-banner">
          No <code>auth</code> is configured: this dashboard accepts only requests from this machine
          (loopback). Pass <code>auth</code> to serve it to others.
        </p>
      ) : null}
      {config.readOnly ? (
        <p class="notice info" data-testid="read-only-banner">
          Read-only: actions are hidden here and refused by the server.
        </p>
      ) : null}
      {config.tenant !== null ? (
        <p class="notice info" data-testid="tenant-banner">
          Scoped to tenant <strong>{config.tenant}</strong>: every read and action is limited to it.
        </p>
      ) : null}
    </div>
  );
}

export function App() {
  const route = useRoute();
  const main = useRef<HTMLElement>(null);
  const first = useRef(true);
  useEffect(() => {
    document.title = `${TITLES[route.page]} · ${config.title}`;
    // After a navigation, keyboard and screen-reader users start at the new page's content.
    if (first.current) first.current = false;
    else main.current?.focus();
  }, [route]);
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <div class="brand">
          <Link to="/" class="brand-link">
            {config.title}
          </Link>
          <span class="driver" title="driver">
            {config.driver}
          </span>
        </div>
        <nav aria-label="Dashboard">
          <ul>
            {NAV.map((item) => (
              <li key={item.to}>
                <Link
                  to={item.to}
                  class="nav-link"
                  aria-current={
                    route.page === item.page || (item.page === 'jobs' && route.page === 'job')
                      ? 'page'
                      : undefined
                  }
                >
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <IdSearch />
        <ThemeToggle />
      </header>
      <Banners />
      <main id="main" ref={main} tabIndex={-1}>
        <Page route={route} />
      </main>
      <TimeZoneNote />
    </>
  );
}
