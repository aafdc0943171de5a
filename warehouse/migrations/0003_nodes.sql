-- 0003_nodes — where each rank ran.  The analyses group ranks by node (the
-- MPI-IO aggregators of each node, the load per node), and reports show it.
ALTER TABLE jobs ADD COLUMN hostnames text[];      -- the job's nodes, display form, node order
ALTER TABLE jobs ADD COLUMN rank_nodes integer[];  -- per rank (index rank + 1): its node, 0-based
