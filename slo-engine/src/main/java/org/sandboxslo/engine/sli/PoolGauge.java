package org.sandboxslo.engine.sli;

/**
 * Point-in-time pool state ("drain"), for one pool or summed over the pools of a template or
 * namespace. Membership is by controller ownerReference only, never by labels.
 *
 * @param replicas Σ spec.replicas (desired members)
 * @param statusReplicas Σ status.replicas as the controller reports it; null when no pool has
 *     status
 * @param statusReadyReplicas Σ status.readyReplicas; null when no pool has status
 * @param readyFraction upstream's view, statusReadyReplicas / replicas; null when replicas is 0 or
 *     there is no status. Draining below 0.2.
 * @param members active members observed (owned, not deleting)
 * @param readyMembers members with Ready=True
 * @param readyCurrentMembers Ready members whose blueprint matches the current template
 * @param readyFractionCurrentTemplate readyCurrentMembers / replicas; null when replicas is 0
 * @param staleMembers unclaimed members whose blueprint differs semantically from the template
 * @param notReadyMembers members without Ready=True
 */
public record PoolGauge(
    int replicas,
    Integer statusReplicas,
    Integer statusReadyReplicas,
    Double readyFraction,
    int members,
    int readyMembers,
    int readyCurrentMembers,
    Double readyFractionCurrentTemplate,
    int staleMembers,
    int notReadyMembers) {}
