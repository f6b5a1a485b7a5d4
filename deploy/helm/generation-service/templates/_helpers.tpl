{{/* Names: <release>-generation-service, and <fullname>-<app> for an app (at most 63 characters). */}}
{{- define "gs.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 46 | trimSuffix "-" -}}
{{- end -}}

{{- define "gs.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 46 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 46 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 46 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The resource name of one app: (dict "root" $ "app" "gateway"). */}}
{{- define "gs.appName" -}}
{{- printf "%s-%s" (include "gs.fullname" .root) .app | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "gs.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "gs.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/part-of: generation-service
{{- with .app }}
app.kubernetes.io/component: {{ . }}
{{- end }}
{{- end -}}

{{- define "gs.selectorLabels" -}}
app.kubernetes.io/name: {{ include "gs.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .app }}
{{- end -}}

{{/* repository:tag (or @digest); the tag defaults to the chart's appVersion and is never `latest`. */}}
{{- define "gs.image" -}}
{{- $tag := default .Chart.AppVersion .Values.image.tag | toString -}}
{{- if or (eq $tag "latest") (eq $tag "") -}}
{{- fail "image.tag must name a version (it defaults to the chart's appVersion), never latest" -}}
{{- end -}}
{{- if .Values.image.digest -}}
{{- printf "%s:%s@%s" .Values.image.repository $tag .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository $tag -}}
{{- end -}}
{{- end -}}

{{/* One app's values: appDefaults overlaid by its entry under `apps`. (dict "root" $ "app" "gateway") */}}
{{- define "gs.appValues" -}}
{{- $override := index .root.Values.apps .app | default dict -}}
{{- mustMergeOverwrite (deepCopy .root.Values.appDefaults) (deepCopy $override) | toYaml -}}
{{- end -}}

{{/* A setting as the string an environment variable holds: numbers from YAML come as float64. */}}
{{- define "gs.envValue" -}}
{{- if kindIs "float64" . -}}
{{- int64 . | toString -}}
{{- else if kindIs "invalid" . -}}
{{- else -}}
{{- toString . -}}
{{- end -}}
{{- end -}}

{{/* Seconds a pod may take to stop: preStop pause, then the drain (SHUTDOWN_GRACE_MS rounded up), plus 5 s. */}}
{{- define "gs.terminationGracePeriodSeconds" -}}
{{- $drain := div (add (int64 .Values.shutdownGraceMs) 999) 1000 -}}
{{- add $drain (int64 .Values.preStopSleepSeconds) 5 -}}
{{- end -}}

{{- define "gs.secretName" -}}
{{- default (printf "%s-secrets" (include "gs.fullname" .)) .Values.secrets.existingSecret -}}
{{- end -}}

{{- define "gs.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "gs.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "gs.catalogConfigMap" -}}
{{- if .Values.catalog.existingConfigMap -}}
{{- .Values.catalog.existingConfigMap -}}
{{- else if .Values.catalog.json -}}
{{- printf "%s-catalog" (include "gs.fullname" .) -}}
{{- end -}}
{{- end -}}

{{/*
The public paths and the app that serves each: INGRESS_ROUTES of libs/contracts/src/fleet.ts, where the longest
matching path wins and Exact before Prefix of the same path, as in an Ingress. A test compares the rendered
Ingress with that table. Any other path goes to the gateway (INGRESS_DEFAULT_APP) through the `/` rule.
/v1/models is Exact: the paths below it, among them Google's /v1/models/{model}:generateContent and
:streamGenerateContent, stay compat-protocols' through /v1.
*/}}
{{- define "gs.ingressRoutes" -}}
- { path: /api/v1, pathType: Prefix, app: gateway }
- { path: /api/v1/common/upload-url, pathType: Exact, app: media }
- { path: /api/v1/files, pathType: Prefix, app: media }
- { path: /api/v1/assets, pathType: Prefix, app: media }
- { path: /api/v1/jobs, pathType: Prefix, app: tasks }
- { path: /api/v1/usage, pathType: Exact, app: tasks }
- { path: /api/v1/common/download-url, pathType: Exact, app: tasks }
- { path: /api/v1/chat/credit, pathType: Exact, app: billing }
- { path: /api/v1/models, pathType: Prefix, app: catalog }
- { path: /v1, pathType: Prefix, app: compat-protocols }
- { path: /v1/models, pathType: Exact, app: catalog }
- { path: /v1beta, pathType: Prefix, app: compat-protocols }
- { path: /console/v1, pathType: Prefix, app: gateway }
- { path: /console/v1/catalog, pathType: Prefix, app: catalog }
- { path: /console/v1/webhook-endpoints, pathType: Prefix, app: webhooks }
- { path: /console/v1/webhook-events, pathType: Prefix, app: webhooks }
- { path: /console/v1/webhook-deliveries, pathType: Prefix, app: webhooks }
- { path: /console/v1/balance, pathType: Exact, app: billing }
- { path: /console/v1/usage, pathType: Exact, app: tasks }
- { path: /console/v1/tasks, pathType: Prefix, app: tasks }
- { path: /admin/v1, pathType: Prefix, app: gateway }
- { path: /admin/v1/webhook-deliveries, pathType: Prefix, app: webhooks }
- { path: /objects/v1, pathType: Prefix, app: gateway }
- { path: /healthz, pathType: Exact, app: gateway }
- { path: /readyz, pathType: Exact, app: gateway }
- { path: /openapi.json, pathType: Exact, app: gateway }
- { path: /, pathType: Prefix, app: gateway }
{{- end -}}
