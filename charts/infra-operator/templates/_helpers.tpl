{{- /* renderCRD takes (list $ctx $crdName) and yields "true" when this release renders the CRD:
when the cluster has no such CRD, or when this release (name and namespace) owns it. The family
charts explain why in their own renderCRD; the umbrella renders the shared AWSProvider CRD with
the same rule, once, instead of its families. */}}
{{- define "infra-operator.renderCRD" -}}
{{- $ctx := index . 0 }}
{{- $crd := lookup "apiextensions.k8s.io/v1" "CustomResourceDefinition" "" (index . 1) }}
{{- if not $crd }}true
{{- else }}
{{- $annotations := $crd.metadata.annotations | default dict }}
{{- if and (eq (get $annotations "meta.helm.sh/release-name") $ctx.Release.Name) (eq (get $annotations "meta.helm.sh/release-namespace") $ctx.Release.Namespace) }}true{{ end }}
{{- end }}
{{- end }}
