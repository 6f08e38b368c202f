/**
 * Run on each new connection of the driver's own pool: its prepared statements are planned for
 * their parameters every time, never on a generic plan. The claim's generic plan walks far more
 * behind a large backlog than a plan for its arguments, and PostgreSQL may switch a prepared
 * statement to it after five runs. `set_config` through pg_settings sets nothing (and fails
 * nothing) on a server without the setting (before PostgreSQL 12).
 */
export const FORCE_CUSTOM_PLANS = `
  SELECT set_config(name, 'force_custom_plan', false) FROM pg_settings
  WHERE name = 'plan_cache_mode'`;
