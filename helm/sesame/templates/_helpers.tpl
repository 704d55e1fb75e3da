{{/* Name of the chart (or nameOverride). */}}
{{- define "sesame.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Full name prefix of every resource: <release>-sesame, or the release name when it already says sesame. */}}
{{- define "sesame.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Labels of every resource. */}}
{{- define "sesame.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "sesame.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: sesame
{{- end -}}

{{/* Selector labels of one component: (dict "root" $ "component" "gateway"). */}}
{{- define "sesame.selectorLabels" -}}
app.kubernetes.io/name: {{ include "sesame.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{/* Labels of a component's pods: its selector plus the release's identity (no chart version: a chart bump alone restarts nothing). */}}
{{- define "sesame.podLabels" -}}
{{ include "sesame.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/part-of: sesame
{{- end -}}

{{/*
The Sesame processes: values key, component name, the HTTP port its image listens on
(probes, /metrics, and the API for the gateway), its entry point, and whether it uses the stores. The gateway and docs are reachable from outside; the services only over NATS.
The gateway serves /metrics on a management port of its own (`managementPort`), never on the public one.
*/}}
{{- define "sesame.components" -}}
gateway: { port: 8080, name: gateway, managementPort: 9080, entry: gateway/dist/main.js, public: true, stores: false, healthPath: /healthz, readyPath: /readyz }
identity: { port: 8081, name: identity, entry: services/identity/dist/main.js, public: false, stores: true, healthPath: /healthz, readyPath: /readyz }
authMethods: { port: 8082, name: auth-methods, entry: services/auth-methods/dist/main.js, public: false, stores: true, healthPath: /healthz, readyPath: /readyz }
directorySync: { port: 8083, name: directory-sync, entry: services/directory-sync/dist/main.js, public: false, stores: true, healthPath: /healthz, readyPath: /readyz }
webhooks: { port: 8084, name: webhooks, entry: services/webhooks/dist/main.js, public: false, stores: true, healthPath: /healthz, readyPath: /readyz }
docs: { port: 8000, name: docs, entry: docs/scripts/serve.mjs, public: true, stores: false, healthPath: /, readyPath: / }
{{- end -}}

{{/* Image of a Sesame component: (dict "root" $ "values" $componentValues "name" "gateway"); its digest, when set, wins over any tag. */}}
{{- define "sesame.image" -}}
{{- $repository := .values.image.repository | default (printf "%s-%s" .root.Values.image.repository .name) -}}
{{- $tag := .values.image.tag | default .root.Values.image.tag | default .root.Chart.AppVersion -}}
{{- include "sesame.imageRef" (dict "repository" $repository "tag" $tag "digest" .values.image.digest) -}}
{{- end -}}

{{/* repository@digest when a digest is given, else repository:tag: (dict "repository" "nats" "tag" "2.10" "digest" ""). */}}
{{- define "sesame.imageRef" -}}
{{- if .digest -}}
{{- printf "%s@%s" .repository .digest -}}
{{- else -}}
{{- printf "%s:%s" .repository .tag -}}
{{- end -}}
{{- end -}}

{{/*
The extension points of a Sesame pod: the list `key` of app (every component) followed by the
component's own: (dict "root" $ "values" $componentValues "key" "extraEnv"). Rendered as a YAML list, or nothing.
*/}}
{{- define "sesame.extras" -}}
{{- $items := concat (index .root.Values.app .key) (index .values .key) -}}
{{- with $items }}
{{- toYaml . }}
{{- end }}
{{- end -}}

{{/*
Topology spread constraints of a component: its own, else app's; a constraint without labelSelector
selects the component's pods: (dict "root" $ "values" $componentValues "component" "gateway").
*/}}
{{- define "sesame.topologySpread" -}}
{{- $selector := dict "matchLabels" (include "sesame.selectorLabels" (dict "root" .root "component" .component) | fromYaml) -}}
{{- $constraints := list -}}
{{- range (.values.topologySpreadConstraints | default .root.Values.app.topologySpreadConstraints) -}}
{{- $constraints = append $constraints (ternary . (merge (dict "labelSelector" $selector) .) (hasKey . "labelSelector")) -}}
{{- end -}}
{{- with $constraints }}
{{- toYaml . }}
{{- end }}
{{- end -}}

{{/*
The outbound proxy variables of the Sesame processes (webhooks, breached-password lookups, SMS), when
`proxy` sets any; NO_PROXY always keeps the cluster (stores, Kubernetes API) off the proxy.
*/}}
{{- define "sesame.proxyEnv" -}}
{{- with .Values.proxy }}
{{- if or .httpsProxy .httpProxy .noProxy }}
{{- with .httpsProxy }}
- name: HTTPS_PROXY
  value: {{ . | quote }}
{{- end }}
{{- with .httpProxy }}
- name: HTTP_PROXY
  value: {{ . | quote }}
{{- end }}
- name: NO_PROXY
  value: {{ compact (list .noProxy "localhost,127.0.0.1,::1,.svc,.cluster.local") | join "," | quote }}
{{- end }}
{{- end }}
{{- end -}}

{{- define "sesame.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "sesame.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* The Secret the first-API-key Job writes the key to (not managed by Helm: kept on uninstall). */}}
{{- define "sesame.firstApiKeySecretName" -}}
{{- default (printf "%s-first-api-key" (include "sesame.fullname" .)) .Values.firstApiKey.secretName -}}
{{- end -}}

{{/* Name of the Secret holding the secret environment variables. */}}
{{- define "sesame.secretName" -}}
{{- default (printf "%s-env" (include "sesame.fullname" .)) .Values.existingSecret -}}
{{- end -}}

{{/* Names and in-cluster addresses of the stores run by this release. */}}
{{- define "sesame.nats.fullname" -}}{{ include "sesame.fullname" . }}-nats{{- end -}}
{{- define "sesame.eventstoredb.fullname" -}}{{ include "sesame.fullname" . }}-eventstoredb{{- end -}}
{{- define "sesame.mongodb.fullname" -}}{{ include "sesame.fullname" . }}-mongodb{{- end -}}
{{- define "sesame.mongodb.secretName" -}}
{{- default (printf "%s-auth" (include "sesame.mongodb.fullname" .)) .Values.mongodb.auth.existingSecret -}}
{{- end -}}

{{/*
NATS permissions of every Sesame process for the configured prefix (each process connects as its own
user): generated from the platform package's permission table (`node deploy/nats-files.mjs`).
*/}}
{{- define "sesame.nats.permissions" -}}
{{- $prefix := .Values.config.SESAME_PREFIX | default "sesame" -}}
{{- .Files.Get "files/nats-permissions.json" | replace "__PREFIX__" (upper $prefix) | replace "__prefix__" $prefix -}}
{{- end -}}

{{/* The NATS users: one per process (gateway, the four services, the `sesame` CLI). */}}
{{- define "sesame.nats.users" -}}
{{- include "sesame.nats.permissions" . | fromJson | keys | sortAlpha | toJson -}}
{{- end -}}

{{/* Every password of the credentials Secret: the processes' and the operators' `admin` (every subject; no pod gets it). */}}
{{- define "sesame.nats.passwords" -}}
{{- append (include "sesame.nats.users" . | fromJsonArray) "admin" | toJson -}}
{{- end -}}

{{/* The Secret holding one NATS password per process, under the process's name. */}}
{{- define "sesame.nats.credentialsSecret" -}}
{{- default (printf "%s-nats-credentials" (include "sesame.fullname" .)) .Values.nats.auth.existingSecret -}}
{{- end -}}

{{/* The variable a NATS server reads a process's password from: SESAME_NATS_PASSWORD_AUTH_METHODS. */}}
{{- define "sesame.nats.passwordVariable" -}}
SESAME_NATS_PASSWORD_{{ . | upper | replace "-" "_" }}
{{- end -}}

{{/* The Secret with the CA certificate (ca.crt) that verifies NATS' certificate, if any. */}}
{{- define "sesame.nats.caSecret" -}}
{{- .Values.nats.tls.caSecret | default .Values.nats.tls.serverSecret -}}
{{- end -}}

{{/*
How one process connects to NATS, besides its URL: its own user and password, and the TLS files:
(dict "root" $ "user" "gateway").
*/}}
{{- define "sesame.nats.env" -}}
{{- $tls := .root.Values.nats.tls -}}
{{- if .root.Values.nats.auth.enabled }}
- name: SESAME_NATS_USER
  value: {{ .user | quote }}
- name: SESAME_NATS_PASSWORD
  valueFrom:
    secretKeyRef: { name: {{ include "sesame.nats.credentialsSecret" .root }}, key: {{ .user }} }
{{- end }}
{{- if and $tls.enabled (include "sesame.nats.caSecret" .root) }}
- name: SESAME_NATS_TLS_CA
  value: /etc/sesame/nats-ca/ca.crt
{{- end }}
{{- if and $tls.enabled $tls.clientSecret }}
- name: SESAME_NATS_TLS_CERT
  value: /etc/sesame/nats-client/tls.crt
- name: SESAME_NATS_TLS_KEY
  value: /etc/sesame/nats-client/tls.key
{{- end }}
{{- end -}}

{{/* Volumes of the NATS TLS files of a Sesame pod. */}}
{{- define "sesame.nats.tlsVolumes" -}}
{{- if .Values.nats.tls.enabled }}
{{- with include "sesame.nats.caSecret" . }}
- name: nats-ca
  secret: { secretName: {{ . }}, items: [{ key: ca.crt, path: ca.crt }] }
{{- end }}
{{- with .Values.nats.tls.clientSecret }}
- name: nats-client
  secret: { secretName: {{ . }}, items: [{ key: tls.crt, path: tls.crt }, { key: tls.key, path: tls.key }] }
{{- end }}
{{- end }}
{{- end -}}

{{- define "sesame.nats.tlsMounts" -}}
{{- if .Values.nats.tls.enabled }}
{{- if include "sesame.nats.caSecret" . }}
- { name: nats-ca, mountPath: /etc/sesame/nats-ca, readOnly: true }
{{- end }}
{{- if .Values.nats.tls.clientSecret }}
- { name: nats-client, mountPath: /etc/sesame/nats-client, readOnly: true }
{{- end }}
{{- end }}
{{- end -}}

{{/* <pod>.<headless service>.<namespace>.svc for each member of a StatefulSet: (dict "root" $ "name" $fullname "replicas" 3 "port" 2113). */}}
{{- define "sesame.members" -}}
{{- $hosts := list -}}
{{- range $i := until (int .replicas) -}}
{{- $hosts = append $hosts (printf "%s-%d.%s-headless.%s.svc:%d" $.name $i $.name $.root.Release.Namespace (int $.port)) -}}
{{- end -}}
{{- join "," $hosts -}}
{{- end -}}

{{/* Members of the MongoDB replica set for rs.initiate; member 0 is preferred as primary. */}}
{{- define "sesame.mongodb.members" -}}
{{- $name := include "sesame.mongodb.fullname" . -}}
{{- $members := list -}}
{{- range $i := until (int .Values.mongodb.replicas) -}}
{{- $members = append $members (printf "{ _id: %d, host: '%s-%d.%s-headless.%s.svc:27017', priority: %d }" $i $name $i $name $.Release.Namespace (ternary 2 1 (eq $i 0))) -}}
{{- end -}}
{{- join ", " $members -}}
{{- end -}}

{{/* SESAME_PUBLIC_URL: configured, else the gateway's first Ingress host, else its HTTPRoute's first host name (https), else its in-cluster Service. */}}
{{- define "sesame.publicUrl" -}}
{{- if .Values.config.SESAME_PUBLIC_URL -}}
{{- .Values.config.SESAME_PUBLIC_URL -}}
{{- else if and .Values.gateway.ingress.enabled .Values.gateway.ingress.hosts -}}
{{- printf "%s://%s" (ternary "https" "http" (gt (len .Values.gateway.ingress.tls) 0)) (first .Values.gateway.ingress.hosts).host -}}
{{- else if and .Values.gateway.httpRoute.enabled .Values.gateway.httpRoute.hostnames -}}
{{- printf "https://%s" (first .Values.gateway.httpRoute.hostnames) -}}
{{- else -}}
{{- printf "http://%s-gateway.%s.svc:%d" (include "sesame.fullname" .) .Release.Namespace (int .Values.gateway.service.port) -}}
{{- end -}}
{{- end -}}

{{/* SESAME_DOCS_URL: configured, else the docs' first Ingress host, else their HTTPRoute's first host name (https), else empty (process default). */}}
{{- define "sesame.docsUrl" -}}
{{- if .Values.config.SESAME_DOCS_URL -}}
{{- .Values.config.SESAME_DOCS_URL -}}
{{- else if and .Values.docs.enabled .Values.docs.ingress.enabled .Values.docs.ingress.hosts -}}
{{- printf "%s://%s" (ternary "https" "http" (gt (len .Values.docs.ingress.tls) 0)) (first .Values.docs.ingress.hosts).host -}}
{{- else if and .Values.docs.enabled .Values.docs.httpRoute.enabled .Values.docs.httpRoute.hostnames -}}
{{- printf "https://%s" (first .Values.docs.httpRoute.hostnames) -}}
{{- end -}}
{{- end -}}

{{/*
Environment of every Sesame process besides the ConfigMap and Secret: the addresses of the stores
this release runs. MongoDB's password comes from its Secret through variable expansion.
*/}}
{{- define "sesame.storeEnv" -}}
{{- if .Values.nats.enabled }}
- name: SESAME_NATS_URL
  value: {{ printf "nats://%s:4222" (include "sesame.nats.fullname" .) | quote }}
{{- if not .Values.config.SESAME_JETSTREAM_REPLICAS }}
- name: SESAME_JETSTREAM_REPLICAS
  value: {{ ternary 3 1 (ge (int .Values.nats.replicas) 3) | quote }}
{{- end }}
{{- end }}
{{- if and .Values.eventstoredb.enabled (eq .Values.config.SESAME_EVENT_STORE "eventstoredb") }}
- name: SESAME_EVENTSTOREDB_URL
  value: {{ printf "esdb://%s?tls=false" (include "sesame.members" (dict "root" . "name" (include "sesame.eventstoredb.fullname" .) "replicas" .Values.eventstoredb.replicas "port" 2113)) | quote }}
{{- end }}
{{- if and .Values.mongodb.enabled (eq .Values.config.SESAME_READ_MODEL "mongodb") }}
- name: SESAME_MONGODB_PASSWORD
  valueFrom:
    secretKeyRef: { name: {{ include "sesame.mongodb.secretName" . }}, key: mongodb-password }
- name: SESAME_MONGODB_URL
  value: {{ printf "mongodb://%s:$(SESAME_MONGODB_PASSWORD)@%s/%s?replicaSet=%s&authSource=admin" .Values.mongodb.auth.username (include "sesame.members" (dict "root" . "name" (include "sesame.mongodb.fullname" .) "replicas" .Values.mongodb.replicas "port" 27017)) .Values.config.SESAME_MONGODB_DATABASE .Values.mongodb.replicaSetName | quote }}
{{- end }}
{{- end -}}

{{/* Fails the render early on settings that cannot work together. */}}
{{- define "sesame.validate" -}}
{{- if and (not .Values.existingSecret) (not .Values.secrets.SESAME_ENCRYPTION_KEYS) -}}
{{- fail "secrets.SESAME_ENCRYPTION_KEYS is required (or existingSecret): generate one with  echo \"k1:$(openssl rand -base64 32)\"" -}}
{{- end -}}
{{- if and (eq .Values.config.SESAME_EVENT_STORE "eventstoredb") (not .Values.eventstoredb.enabled) (not .Values.config.SESAME_EVENTSTOREDB_URL) (not .Values.secrets.SESAME_EVENTSTOREDB_URL) (not .Values.existingSecret) -}}
{{- fail "config.SESAME_EVENT_STORE=eventstoredb needs eventstoredb.enabled=true or SESAME_EVENTSTOREDB_URL (in config, secrets or existingSecret)" -}}
{{- end -}}
{{- if and (eq .Values.config.SESAME_READ_MODEL "mongodb") (not .Values.mongodb.enabled) (not .Values.config.SESAME_MONGODB_URL) (not .Values.secrets.SESAME_MONGODB_URL) (not .Values.existingSecret) -}}
{{- fail "config.SESAME_READ_MODEL=mongodb needs mongodb.enabled=true or SESAME_MONGODB_URL (in secrets or existingSecret)" -}}
{{- end -}}
{{- if and (not .Values.nats.enabled) (not .Values.config.SESAME_NATS_URL) (not .Values.secrets.SESAME_NATS_URL) (not .Values.existingSecret) -}}
{{- fail "nats.enabled=false needs config.SESAME_NATS_URL (your NATS server with JetStream)" -}}
{{- end -}}
{{- if and .Values.mongodb.enabled (not .Values.mongodb.auth.existingSecret) (or (not .Values.mongodb.auth.rootPassword) (not .Values.mongodb.auth.password) (not .Values.mongodb.auth.replicaSetKey)) -}}
{{- fail "mongodb.enabled needs mongodb.auth.rootPassword, mongodb.auth.password and mongodb.auth.replicaSetKey (or mongodb.auth.existingSecret): generate them with  openssl rand -hex 24" -}}
{{- end -}}
{{- if and .Values.nats.enabled (eq (int .Values.nats.replicas) 2) -}}
{{- fail "nats.replicas must be 1 or at least 3 (a JetStream cluster needs a majority)" -}}
{{- end -}}
{{- if and .Values.nats.enabled (not .Values.nats.auth.enabled) -}}
{{- fail "nats.auth.enabled=false is for an external NATS only: the NATS this chart runs always has a user per process" -}}
{{- end -}}
{{- if and .Values.nats.enabled .Values.nats.tls.enabled (not .Values.nats.tls.serverSecret) -}}
{{- fail "nats.tls.enabled needs nats.tls.serverSecret: a Secret with tls.crt and tls.key (and ca.crt) for the NATS Service name" -}}
{{- end -}}
{{- range $key := list "gateway" "docs" }}
{{- $route := (index $.Values $key).httpRoute }}
{{- if and $route.enabled (not $route.parentRefs) }}
{{- fail (printf "%s.httpRoute.enabled needs %s.httpRoute.parentRefs: the Gateway the route attaches to, e.g. [{name: my-gateway, namespace: gateway-system}]" $key $key) }}
{{- end }}
{{- end }}
{{- range $key, $component := include "sesame.components" . | fromYaml }}
{{- $scaling := (index $.Values $key).autoscaling }}
{{- if and $scaling.enabled (not $scaling.targetCPUUtilizationPercentage) (not $scaling.targetMemoryUtilizationPercentage) (not $scaling.metrics) }}
{{- fail (printf "%s.autoscaling.enabled needs a metric: targetCPUUtilizationPercentage, targetMemoryUtilizationPercentage or metrics" $key) }}
{{- end }}
{{- end }}
{{- if and .Values.nats.tls.enabled .Values.nats.tls.clientSecret (not (include "sesame.nats.caSecret" .)) -}}
{{- fail "nats.tls.clientSecret needs nats.tls.caSecret (or nats.tls.serverSecret with a ca.crt): the CA that signs the client certificates" -}}
{{- end -}}
{{- end -}}

{{/* The named container port a component serves /metrics on: (dict "component" $component). */}}
{{- define "sesame.metricsPortName" -}}
{{- if .component.managementPort }}management{{ else }}http{{ end -}}
{{- end -}}
