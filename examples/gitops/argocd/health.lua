-- Argo CD health check for every infra-operator kind, from the kstatus-style conditions the
-- operators write: Healthy when Ready is True for the current generation, Degraded with the
-- reason when the resource is Stalled (a terminal error: the spec must change), when an object
-- it refers to is Stalled (ReferenceFailed: it goes on once that object is fixed), when an
-- AWSProvider's or ClusterAWSProvider's credentials are refused, or when a resource that was
-- Ready stopped being available; Progressing otherwise (creating, updating, waiting for a
-- reference that is not Ready yet or for a Secret). A Healthy resource that changed outside the
-- operator and is left so (driftPolicy Report, managementPolicy ObserveOnly) says so in its
-- message: "Drifted: DriftReported: ...". A resource whose changes wait for approval
-- (changePolicy Manual, PlanPending True) is Suspended, with how to approve the plan.
local hs = { status = "Progressing", message = "Waiting for the operator to reconcile" }
if obj.status == nil or obj.status.conditions == nil then
  return hs
end
local ready, stalled, drifted, planned
for _, c in ipairs(obj.status.conditions) do
  if c.type == "Ready" then ready = c end
  if c.type == "Stalled" then stalled = c end
  if c.type == "Drifted" then drifted = c end
  if c.type == "PlanPending" then planned = c end
end
local function describe(c)
  if c.message ~= nil and c.message ~= "" then
    return c.reason .. ": " .. c.message
  end
  return c.reason
end
if stalled ~= nil and stalled.status == "True" then
  hs.status = "Degraded"
  hs.message = describe(stalled)
  return hs
end
if planned ~= nil and planned.status == "True" then
  hs.status = "Suspended"
  hs.message = describe(planned)
  return hs
end
if ready == nil then
  return hs
end
local current = ready.observedGeneration == nil or obj.metadata.generation == nil or ready.observedGeneration == obj.metadata.generation
if ready.status == "True" and current then
  hs.status = "Healthy"
  hs.message = ready.message or ""
  if drifted ~= nil and drifted.status == "True" then
    hs.message = "Drifted: " .. describe(drifted)
  end
  return hs
end
hs.message = describe(ready)
if ready.status == "False" and (ready.reason == "Unavailable" or ready.reason == "ReferenceFailed" or ((obj.kind == "AWSProvider" or obj.kind == "ClusterAWSProvider") and current)) then
  hs.status = "Degraded"
end
return hs
