import { describeClusterKit } from './cluster-kit.js';

// Share 1 of the kit on a cluster; the two cluster-conformance files run it whole.
describeClusterKit(0);
