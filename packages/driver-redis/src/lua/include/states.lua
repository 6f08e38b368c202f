-- states: which job states mean what to the indexes and checks.

local LIVE = { ready = true, delayed = true, running = true, suspended = true }
local REQUEUEABLE = { failed = true, dead = true, cancelled = true }
local TERMINAL = { completed = true, failed = true, dead = true, cancelled = true }
local STATES = { 'ready', 'delayed', 'running', 'suspended', 'completed', 'failed', 'dead', 'cancelled' }
-- States whose rows per queue are only counted (k_counts), never ordered: no zset write per row.
-- Ready rows are ordered in their lane's due set already (stats finds the oldest there).
local COUNTED = { ready = true, running = true, completed = true, failed = true, dead = true,
  cancelled = true }
