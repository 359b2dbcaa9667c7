{{/*
The chart's name (nameOverride) and the release's full name (fullnameOverride, else the release name, with the
chart's name appended unless it already contains it), as `helm create` defines them.
*/}}
{{- define "hami-java.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end }}

{{- define "hami-java.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := include "hami-java.name" . -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end }}

{{/*
The name of an object outside the release namespace (ClusterRoles and their bindings, the webhook configuration,
the admission policy and its binding, the RoleBinding in kube-system), so that two releases do not collide:
<fullname>-<base>. The full name hami-java (the release hami-java, the name the docs install) keeps the names of
deploy/kubernetes: hami-<base>. Call with (list $ "base").
*/}}
{{- define "hami-java.clusterName" -}}
{{- $root := index . 0 -}}
{{- $fullname := include "hami-java.fullname" $root -}}
{{- $prefix := ternary "hami" $fullname (eq $fullname "hami-java") -}}
{{- printf "%s-%s" $prefix (index . 1) | trunc 63 | trimSuffix "-" -}}
{{- end }}

{{/*
The namespace of the release's objects: namespaceOverride (upstream), else the release namespace.
*/}}
{{- define "hami-java.namespace" -}}
{{- .Values.namespaceOverride | default .Release.Namespace -}}
{{- end }}

{{/*
The labels of every object: the app (name; "" for the chart's name), instance, version, component, part-of, Helm's
managed-by and chart, then upstream's global.labels. Call with (dict "root" $ "name" "hami-scheduler" "component" "scheduler").
*/}}
{{- define "hami-java.labels" -}}
{{- $root := .root -}}
app.kubernetes.io/name: {{ .name | default (include "hami-java.name" $root) }}
app.kubernetes.io/instance: {{ $root.Release.Name }}
app.kubernetes.io/version: {{ $root.Chart.AppVersion | quote }}
app.kubernetes.io/component: {{ .component }}
app.kubernetes.io/part-of: hami-java
app.kubernetes.io/managed-by: {{ $root.Release.Service }}
helm.sh/chart: {{ printf "%s-%s" $root.Chart.Name $root.Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- range $k, $v := $root.Values.global.labels }}
{{ $k }}: {{ $v | toString | quote }}
{{- end }}
{{- end }}

{{/*
upstream's global.annotations as a metadata annotations block ("" when none); call with (dict "root" $ "extra" map).
*/}}
{{- define "hami-java.annotations" -}}
{{- $all := merge (dict) (.extra | default dict) (.root.Values.global.annotations | default dict) -}}
{{- with $all -}}
annotations:
{{- range $k, $v := . }}
  {{ $k }}: {{ $v | toString | quote }}
{{- end }}
{{- end -}}
{{- end }}

{{/*
The vendors hami-java has (the keys of devices and of the device config).
*/}}
{{- define "hami-java.vendors" -}}
nvidia cambricon mthreads hygon
{{- end }}

{{/*
An image reference: global.imageRegistry, else the image's registry, then repository and tag.
Call with (dict "root" $ "image" .Values.x.image "tag" "fallback tag").
*/}}
{{- define "hami-java.image" -}}
{{- $registry := .root.Values.global.imageRegistry | default .image.registry | default "" -}}
{{- $tag := .image.tag | default .tag -}}
{{- if $registry }}{{ $registry }}/{{ end }}{{ .image.repository }}:{{ $tag }}
{{- end }}

{{/*
The tag of our own images: the component's, else global.imageTag, else the chart's appVersion.
*/}}
{{- define "hami-java.tag" -}}
{{- if include "hami-java.upstreamTag" . }}{{ .Chart.AppVersion }}{{ else }}{{ .Values.global.imageTag | default .Chart.AppVersion }}{{ end -}}
{{- end }}

{{/*
"true" when global.imageTag is one of upstream HAMi's release tags (v2.x.y, as upstream's values.yaml sets it):
no hami-java image carries it, so it is ignored (NOTES).
*/}}
{{- define "hami-java.upstreamTag" -}}
{{- if regexMatch "^v2\\.[0-9]+\\.[0-9]+" (toString .Values.global.imageTag) }}true{{ end -}}
{{- end }}

{{/*
"true" when an image block names upstream's HAMi image (repository projecthami/hami, upstream's default for the
scheduler, the device plugin and the monitor): it describes upstream's image, so its registry, repository and tag
are ignored (NOTES) and hami-java's own image is used; pullPolicy and pullSecrets still apply.
*/}}
{{- define "hami-java.isUpstreamImage" -}}
{{- if and (kindIs "map" .) (eq (toString (index . "repository" | default "")) "projecthami/hami") }}true{{ end -}}
{{- end }}

{{/*
A device plugin's image: devices.<vendor>.image.repository with devicePlugin.image's registry and tag (unless that
block is upstream's image). Call with (list $ "vendor").
*/}}
{{- define "hami-java.pluginImage" -}}
{{- $root := index . 0 -}}
{{- $d := $root.Values.devicePlugin.image -}}
{{- $upstream := include "hami-java.isUpstreamImage" $d -}}
{{- $image := dict "registry" (ternary "" ($d.registry | default "") (eq $upstream "true")) "repository" (index $root.Values.devices (index . 1)).image.repository "tag" (ternary "" ($d.tag | default "") (eq $upstream "true")) -}}
{{- include "hami-java.image" (dict "root" $root "image" $image "tag" (include "hami-java.tag" $root)) -}}
{{- end }}

{{/*
Our scheduler's image: scheduler.extender.image, unless it is upstream's image (then hami-java/scheduler).
*/}}
{{- define "hami-java.extenderImage" -}}
{{- $e := .Values.scheduler.extender.image -}}
{{- $image := ternary (dict "repository" "hami-java/scheduler") $e (eq (include "hami-java.isUpstreamImage" $e) "true") -}}
{{- include "hami-java.image" (dict "root" . "image" $image "tag" (include "hami-java.tag" .)) -}}
{{- end }}

{{/*
kube-webhook-certgen's image block: upstream's scheduler.patch.imageNew when its repository is set (upstream's chart
runs imageNew on every Kubernetes this chart supports, >= 1.22), else scheduler.patch.image.
*/}}
{{- define "hami-java.certgenImageBlock" -}}
{{- $p := .Values.scheduler.patch -}}
{{- $new := $p.imageNew | default dict -}}
{{- toYaml (ternary $new $p.image (ne (toString ($new.repository | default "")) "")) -}}
{{- end }}

{{/*
extra arguments with upstream's Go logging flags removed (-v=N, --v=N, --debug: not flags of hami-java), which
NOTES lists. Call with a list; returns a JSON list.
*/}}
{{- define "hami-java.args" -}}
{{- $out := list -}}
{{- range . }}{{ if not (include "hami-java.isGoLogFlag" .) }}{{ $out = append $out . }}{{ end }}{{ end -}}
{{- toJson $out -}}
{{- end }}

{{- define "hami-java.isGoLogFlag" -}}
{{- if regexMatch "^(--?v(=[0-9]+)?|--debug(=(true|false))?)$" (toString .) }}true{{ end -}}
{{- end }}

{{/*
kube-scheduler's tag: image.tag, else imageTag, else the cluster's version without its suffix (v1.31.1+k3s1 ->
v1.31.1), as upstream's chart resolves it.
*/}}
{{- define "hami-java.kubeSchedulerTag" -}}
{{- $ks := .Values.scheduler.kubeScheduler -}}
{{- $ks.image.tag | default $ks.imageTag | default (regexFind "^v[0-9]+\\.[0-9]+\\.[0-9]+" .Capabilities.KubeVersion.Version) -}}
{{- end }}

{{/*
imagePullSecrets of a pod: global.imagePullSecrets and the images' pullSecrets (upstream), names or {name: ...} as
Kubernetes writes them; "" when none. Call with (list $ extraList).
*/}}
{{- define "hami-java.pullSecrets" -}}
{{- $root := index . 0 -}}
{{- $all := concat ($root.Values.global.imagePullSecrets | default list) (index . 1 | default list) -}}
{{- with $all -}}
imagePullSecrets:
{{- range . | uniq }}
  - name: {{ if kindIs "map" . }}{{ .name }}{{ else }}{{ . }}{{ end }}
{{- end }}
{{- end }}
{{- end }}

{{/*
A node selector: every value a string, as Kubernetes requires (`--set sel.key=true` would give a boolean).
*/}}
{{- define "hami-java.nodeSelector" -}}
{{- range $k, $v := . }}
{{ $k | quote }}: {{ $v | toString | quote }}
{{- end }}
{{- end }}

{{/*
A number of the device config as deploy/kubernetes/device-config.yaml writes it: a whole float keeps its ".0".
*/}}
{{- define "hami-java.float" -}}
{{- if and (kindIs "float64" .) (eq (floor .) .) }}{{ printf "%.1f" . }}{{ else }}{{ . }}{{ end -}}
{{- end }}

{{/*
The listen port of a host:port address (":9395", "0.0.0.0:9395").
*/}}
{{- define "hami-java.port" -}}
{{- $parts := splitList ":" (toString .) -}}
{{- $port := last $parts -}}
{{- if not (regexMatch "^[0-9]+$" $port) -}}
{{- fail (printf "scheduler.metricsBindAddress %q: expected HOST:PORT or :PORT" (toString .)) -}}
{{- end -}}
{{- $port -}}
{{- end }}

{{/*
The device config (device-config.yaml): device-config.content verbatim when set (upstream), else every key of the
code written out from the values.
*/}}
{{- define "hami-java.deviceConfig" -}}
{{- $content := index .Values "device-config" "content" | default "" -}}
{{- if $content -}}
{{- $content | trim }}
{{ else -}}
nvidia:
  resourceCountName: {{ .Values.resourceName }}
  resourceMemoryName: {{ .Values.resourceMem }}
  resourceMemoryPercentageName: {{ .Values.resourceMemPercentage }}
  resourceCoreName: {{ .Values.resourceCores }}
  resourcePriorityName: {{ .Values.resourcePriority }}
  overwriteEnv: {{ .Values.scheduler.overwriteEnv | toString }}
  defaultMemory: 0
  defaultCores: 0
  defaultGPUNum: 1
  memoryFactor: 1
  disableCoreLimit: {{ .Values.devicePlugin.disablecorelimit | toString }}
  gpuCorePolicy: {{ .Values.devices.nvidia.gpuCorePolicy }}
  runtimeClassName: {{ .Values.devicePlugin.runtimeClassName | toString | quote }}
  deviceSplitCount: {{ .Values.devicePlugin.deviceSplitCount }}
  deviceMemoryScaling: {{ include "hami-java.float" .Values.devicePlugin.deviceMemoryScaling }}
  deviceCoreScaling: {{ include "hami-java.float" .Values.devicePlugin.deviceCoreScaling }}
  preConfiguredDeviceMemory: {{ .Values.devicePlugin.preConfiguredDeviceMemory }}
  libCudaLogLevel: {{ .Values.devices.nvidia.libCudaLogLevel | toString | quote }}
  enableNumaTopology: {{ .Values.devicePlugin.enableNumaTopology }}
cambricon:
  resourceCountName: {{ .Values.mluResourceName }}
  resourceMemoryName: {{ .Values.mluResourceMem }}
  resourceCoreName: {{ .Values.mluResourceCores }}
mthreads:
  resourceCountName: {{ .Values.mthreadsResourceName }}
  resourceMemoryName: {{ .Values.mthreadsResourceMem }}
  resourceCoreName: {{ .Values.mthreadsResourceCores }}
hygon:
  resourceCountName: {{ include "hami-java.hygonResource" (list . "Name" "hygon.com/hcunum") }}
  resourceMemoryName: {{ include "hami-java.hygonResource" (list . "Mem" "hygon.com/hcumem") }}
  resourceCoreName: {{ include "hami-java.hygonResource" (list . "Cores" "hygon.com/hcucores") }}
  memoryFactor: 1
{{ end -}}
{{- end }}

{{/*
kube-scheduler's managed resources: the resource names of every enabled vendor, read from the device config
(device-config.content included), the code's defaults for names it leaves out.
*/}}
{{- define "hami-java.managedResources" -}}
{{- $config := include "hami-java.deviceConfig" . | fromYaml -}}
{{- if hasKey $config "Error" -}}
{{- fail (printf "device-config.content is not valid YAML: %s" $config.Error) -}}
{{- end -}}
{{- $defaults := dict
  "nvidia" (list (list "resourceCountName" "nvidia.com/gpu") (list "resourceMemoryName" "nvidia.com/gpumem")
    (list "resourceMemoryPercentageName" "nvidia.com/gpumem-percentage") (list "resourceCoreName" "nvidia.com/gpucores")
    (list "resourcePriorityName" "nvidia.com/priority"))
  "cambricon" (list (list "resourceCountName" "cambricon.com/vmlu") (list "resourceMemoryName" "cambricon.com/mlu.smlu.vmemory")
    (list "resourceCoreName" "cambricon.com/mlu.smlu.vcore"))
  "mthreads" (list (list "resourceCountName" "mthreads.com/vgpu") (list "resourceMemoryName" "mthreads.com/sgpu-memory")
    (list "resourceCoreName" "mthreads.com/sgpu-core"))
  "hygon" (list (list "resourceCountName" "hygon.com/hcunum") (list "resourceMemoryName" "hygon.com/hcumem")
    (list "resourceCoreName" "hygon.com/hcucores")) -}}
{{- range $vendor := splitList " " (include "hami-java.vendors" .) }}
{{- if (index $.Values.devices $vendor).enabled }}
{{- $section := index $config $vendor | default dict }}
{{- range $key := index $defaults $vendor }}
- name: {{ index $section (first $key) | default (last $key) }}
  ignoredByScheduler: true
{{- end }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Refuses values an operator may mistype or carry over from upstream's chart where this chart would silently differ.
*/}}
{{- define "hami-java.validate" -}}
{{- $vendors := splitList " " (include "hami-java.vendors" .) -}}
{{- $aliases := dict "mlu" "cambricon" "dcu" "hygon" "hcu" "hygon" "mthread" "mthreads" "gpu" "nvidia" -}}
{{- range $name, $vendor := .Values.devices }}
{{- if not (has $name $vendors) }}
{{- if hasKey $aliases $name }}
{{- fail (printf "devices.%s: unknown vendor; this chart names it devices.%s (vendors: %s)" $name (get $aliases $name) (join ", " $vendors)) }}
{{- else if not (hasKey (include "hami-java.upstreamVendors" $ | fromJson) $name) }}
{{- fail (printf "devices.%s: unknown vendor (vendors: %s)" $name (join ", " $vendors)) }}
{{- else if eq (include "hami-java.upstreamVendorState" (list $name $vendor)) "refused" }}
{{- fail (printf "devices.%s.enabled=true: hami-java has no %s support (upstream's chart has it off by default); remove it or set devices.%s.enabled=false (vendors: %s)" $name $name $name (join ", " $vendors)) }}
{{- end }}
{{- else if not (and (kindIs "map" $vendor) (kindIs "bool" $vendor.enabled)) }}
{{- fail (printf "devices.%s.enabled must be true or false" $name) }}
{{- end }}
{{- end }}
{{- $enabled := list }}
{{- range $vendors }}{{ if (index $.Values.devices .).enabled }}{{ $enabled = append $enabled . }}{{ end }}{{ end }}
{{- if not $enabled }}
{{- fail "devices: every vendor is disabled; enable at least one of devices.nvidia, devices.cambricon, devices.mthreads, devices.hygon" }}
{{- end }}
{{- $policy := .Values.scheduler.defaultSchedulerPolicy }}
{{- if not (has $policy.nodeSchedulerPolicy (list "binpack" "spread")) }}
{{- fail (printf "scheduler.defaultSchedulerPolicy.nodeSchedulerPolicy %q: expected binpack or spread" (toString $policy.nodeSchedulerPolicy)) }}
{{- end }}
{{- range splitList "," (toString $policy.gpuSchedulerPolicy) }}
{{- if not (has (trim .) (list "binpack" "spread" "mutex" "numa")) }}
{{- fail (printf "scheduler.defaultSchedulerPolicy.gpuSchedulerPolicy %q: expected binpack, spread, mutex, numa or a comma list of them" (toString $policy.gpuSchedulerPolicy)) }}
{{- end }}
{{- end }}
{{- if not (has (toString .Values.devices.nvidia.gpuCorePolicy) (list "default" "force" "disable")) }}
{{- fail (printf "devices.nvidia.gpuCorePolicy %q: expected default, force or disable" (toString .Values.devices.nvidia.gpuCorePolicy)) }}
{{- end }}
{{- if not (has (toString .Values.scheduler.admissionWebhook.failurePolicy) (list "Ignore" "Fail")) }}
{{- fail (printf "scheduler.admissionWebhook.failurePolicy %q: expected Ignore or Fail" (toString .Values.scheduler.admissionWebhook.failurePolicy)) }}
{{- end }}
{{- if and (ne (toString .Values.scheduler.kubeTimeout) "") (le (float64 .Values.scheduler.kubeTimeout) 0.0) }}
{{- fail "scheduler.kubeTimeout must be a positive number of seconds: hami-java does not take upstream's 0 (no timeout), a bind must answer within kube-scheduler's extender timeout" }}
{{- end }}
{{- if lt (int .Values.scheduler.replicas) 1 }}
{{- fail "scheduler.replicas must be at least 1" }}
{{- end }}
{{- if not (include "hami-java.kubeSchedulerTag" .) }}
{{- fail "scheduler.kubeScheduler.imageTag: no tag given and the cluster's version is unknown; set it to your Kubernetes version (v1.x.y)" }}
{{- end }}
{{- /* Upstream keys that would change what upstream's chart deploys, but not this one: refused, not ignored. */}}
{{- $s := .Values.scheduler }}
{{- $unsupported := list
  (list (dig "kubeScheduler" "enabled" true $s) true "scheduler.kubeScheduler.enabled=false (kube-scheduler always runs in the scheduler pod: the extender follows its Lease)")
  (list (dig "leaderElect" true $s) true "scheduler.leaderElect=false (the extender always follows kube-scheduler's Lease; set scheduler.replicas instead)")
  (list (dig "certManager" "enabled" false $s) false "scheduler.certManager.enabled (the certificate comes from kube-webhook-certgen)")
  (list (dig "patch" "enabled" true $s) true "scheduler.patch.enabled=false (kube-webhook-certgen writes the certificate the scheduler serves)")
  (list (dig "admissionWebhook" "enabled" true $s) true "scheduler.admissionWebhook.enabled=false (the webhook is what sends pods to hami-scheduler)")
  (list (dig "admissionWebhook" "customURL" "enabled" false $s) false "scheduler.admissionWebhook.customURL")
  (list (dig "admissionWebhook" "objectSelector" "matchExpressions" (list) $s | len) 0 "scheduler.admissionWebhook.objectSelector (the webhook judges every pod itself: a pod cannot opt out of review)")
  (list (dig "admissionWebhook" "objectSelector" "matchLabels" (dict) $s | len) 0 "scheduler.admissionWebhook.objectSelector (the webhook judges every pod itself: a pod cannot opt out of review)")
  (list (ternary "" (dig "image" "repository" "" .Values.devicePlugin) (eq (include "hami-java.isUpstreamImage" .Values.devicePlugin.image) "true")) "" "devicePlugin.image.repository (each vendor has its image: devices.<vendor>.image.repository; upstream's projecthami/hami is accepted and replaced)")
  (list (dig "libPath" "/usr/local/vgpu" .Values.devicePlugin) "/usr/local/vgpu" "devicePlugin.libPath (HAMi-core's host folder is /usr/local/vgpu)")
  (list (ternary "" (dig "monitor" "image" "repository" "" .Values.devicePlugin) (eq (include "hami-java.isUpstreamImage" (dig "monitor" "image" dict .Values.devicePlugin)) "true")) "" "devicePlugin.monitor.image (the node monitor runs from the NVIDIA plugin image; upstream's projecthami/hami is accepted and replaced)")
  (list (dig "hostNetwork" false .Values.devicePlugin) false "devicePlugin.hostNetwork")
  (list (dig "admissionWebhook" "manageNamespaceSelector" true $s) true "scheduler.admissionWebhook.manageNamespaceSelector=false (the webhook's namespaceSelector keeps system namespaces out; add to it with scheduler.admissionWebhook.namespaceSelector)")
  (list (dig "forceOverwriteDefaultScheduler" true $s) true "scheduler.forceOverwriteDefaultScheduler=false (the webhook always replaces default-scheduler)")
  (list (dig "gpuHookPath" "/usr/local" .Values.global) "/usr/local" "global.gpuHookPath (HAMi-core's host folder is /usr/local/vgpu)")
  (list (dig "managedNodeSelectorEnable" false .Values.global) false "global.managedNodeSelectorEnable (the scheduler considers every node with devices)")
  (list (dig "migStrategy" "none" .Values.devicePlugin) "none" "devicePlugin.migStrategy (hami-java has no MIG support)")
  (list (dig "monitor" "ctrPath" "/usr/local/vgpu/containers" .Values.devicePlugin) "/usr/local/vgpu/containers" "devicePlugin.monitor.ctrPath (the monitor reads /usr/local/vgpu/containers)")
  (list (dig "passDeviceSpecsEnabled" false .Values.devicePlugin) false "devicePlugin.passDeviceSpecsEnabled (the NVIDIA container runtime passes the devices)")
  (list (dig "deviceListStrategy" "envvar" .Values.devicePlugin) "envvar" "devicePlugin.deviceListStrategy (devices are passed as NVIDIA_VISIBLE_DEVICES)")
  (list (dig "nvidiaDriverRoot" "" .Values.devicePlugin | default "") "" "devicePlugin.nvidiaDriverRoot (the NVIDIA container runtime provides the driver)")
  (list (dig "nvidiaHookPath" "" .Values.devicePlugin | default "") "" "devicePlugin.nvidiaHookPath")
  (list (dig "gdrcopyEnabled" false .Values.devicePlugin | default false) false "devicePlugin.gdrcopyEnabled")
  (list (dig "gdsEnabled" false .Values.devicePlugin | default false) false "devicePlugin.gdsEnabled")
  (list (dig "mofedEnabled" false .Values.devicePlugin | default false) false "devicePlugin.mofedEnabled")
}}
{{- range $unsupported }}
{{- if ne (toString (index . 0)) (toString (index . 1)) }}
{{- fail (printf "%s is an upstream HAMi value this chart does not support; see the chart's README" (index . 2)) }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Extra environment of a container (upstream's devicePlugin.extraEnvs and devicePlugin.monitor.extraEnvs): a list of
env entries as upstream writes them, or a map of name to value; "" when none.
*/}}
{{- define "hami-java.extraEnvs" -}}
{{- if kindIs "slice" . }}{{ with . }}{{ toYaml . }}{{ end }}
{{- else if kindIs "map" . }}
{{- range $k, $v := . }}
- name: {{ $k }}
  value: {{ $v | toString | quote }}
{{- end }}
{{- end }}
{{- end }}

{{/*
The ConfigMap holding the plugins' node config (`hami plugin --node-config-file`, upstream's config.json):
devicePlugin.nodeConfiguration.externalConfigName, else the chart's hami-device-plugin-node-config when
devicePlugin.nodeConfiguration.config is set; "" when neither (then no node config).
*/}}
{{- define "hami-java.nodeConfigName" -}}
{{- $nc := .Values.devicePlugin.nodeConfiguration | default dict -}}
{{- if $nc.externalConfigName }}{{ $nc.externalConfigName }}
{{- else if $nc.config }}hami-device-plugin-node-config
{{- end -}}
{{- end }}

{{/*
A Hygon resource name: hcuResource<X> (ours) when set, else upstream's dcuResource<X>, else the code's default.
Call with (list $ "Name" "hygon.com/hcunum").
*/}}
{{- define "hami-java.hygonResource" -}}
{{- $v := (index . 0).Values -}}
{{- $x := index . 1 -}}
{{- index $v (printf "hcuResource%s" $x) | default (index $v (printf "dcuResource%s" $x)) | default (index . 2) -}}
{{- end }}

{{/*
"true" when the monitoring objects render: monitoring.enabled (ours) or upstream's prometheus.enabled.
*/}}
{{- define "hami-java.monitoring" -}}
{{- if or .Values.monitoring.enabled (dig "enabled" false (.Values.prometheus | default dict)) }}true{{ end -}}
{{- end }}

{{/*
upstream's vendors that hami-java does not have, each with whether upstream's values.yaml turns it on: amd and
awsneuron have no enabled key (upstream always manages their resources); ascend, iluvatar and metax are off.
*/}}
{{- define "hami-java.upstreamVendors" -}}
{{- toJson (dict "amd" "always" "awsneuron" "always" "kunlun" true "enflame" true "vastai" true "biren" true "ascend" false "iluvatar" false "metax" false) -}}
{{- end }}

{{/*
What an upstream-only vendor block asks for: "warn" (on, as upstream's defaults have it: accepted and ignored,
NOTES says so), "refused" (turned on where upstream's default is off: an explicit request hami-java cannot honour),
"" (off). Call with (list name block).
*/}}
{{- define "hami-java.upstreamVendorState" -}}
{{- $name := index . 0 -}}
{{- $block := index . 1 -}}
{{- $default := get (include "hami-java.upstreamVendors" nil | fromJson) $name -}}
{{- $explicit := and (kindIs "map" $block) (hasKey $block "enabled") -}}
{{- if eq (toString $default) "always" -}}
{{- if not (and $explicit (not $block.enabled)) }}warn{{ end -}}
{{- else if and $explicit $block.enabled -}}
{{- if $default }}warn{{ else }}refused{{ end -}}
{{- end -}}
{{- end }}

{{/*
What the chart accepts but does not honour, one line each, as a JSON list (NOTES.txt and the comment-only manifest
templates/upstream-values.yaml print them): upstream-only vendors, upstream's image blocks and release tag, Go
logging flags, renamed values, and upstream values without an effect here set away from upstream's defaults.
*/}}
{{- define "hami-java.warnings" -}}
{{- $out := list -}}
{{- $v := .Values -}}
{{- range $name, $block := $v.devices }}
{{- if eq (include "hami-java.upstreamVendorState" (list $name $block)) "warn" }}
{{- $out = append $out (printf "devices.%s: hami-java has no %s support; the block is ignored and pods asking for its resources are not scheduled by hami-java" $name $name) }}
{{- end }}
{{- end }}
{{- if include "hami-java.upstreamTag" . }}
{{- $out = append $out (printf "global.imageTag %s is upstream HAMi's release; hami-java's images are tagged %s (set global.imageTag to a hami-java version)" (toString $v.global.imageTag) .Chart.AppVersion) }}
{{- end }}
{{- range $key, $image := dict "scheduler.extender.image" $v.scheduler.extender.image "devicePlugin.image" $v.devicePlugin.image "devicePlugin.monitor.image" (dig "monitor" "image" dict $v.devicePlugin) }}
{{- if include "hami-java.isUpstreamImage" $image }}
{{- $out = append $out (printf "%s names upstream's image projecthami/hami; its registry, repository and tag are ignored and hami-java's image is used" $key) }}
{{- end }}
{{- end }}
{{- range $key, $args := dict "scheduler.extender.extraArgs" $v.scheduler.extender.extraArgs "devicePlugin.extraArgs" $v.devicePlugin.extraArgs }}
{{- range $args }}{{ if include "hami-java.isGoLogFlag" . }}
{{- $out = append $out (printf "%s: %s is upstream's Go logging flag, not a flag of hami-java; left out" $key (toString .)) }}
{{- end }}{{ end }}
{{- end }}
{{- range $v.scheduler.kubeScheduler.extraNewArgs }}{{ if hasPrefix "--config" (toString .) }}
{{- $out = append $out (printf "scheduler.kubeScheduler.extraNewArgs: %s left out; the chart writes kube-scheduler's configuration" (toString .)) }}
{{- end }}{{ end }}
{{- range $x := list "Name" "Mem" "Cores" }}
{{- $hcu := index $v (printf "hcuResource%s" $x) | default "" }}
{{- $dcu := index $v (printf "dcuResource%s" $x) | default "" }}
{{- if and $hcu $dcu (ne $hcu $dcu) }}
{{- $out = append $out (printf "dcuResource%s %s is upstream's name for hcuResource%s, which is set too: %s wins" $x $dcu $x $hcu) }}
{{- else if and $dcu (not $hcu) }}
{{- $out = append $out (printf "dcuResource%s: the Hygon resource is named %s (upstream's DCU name); set hcuResource%s to rename it" $x $dcu $x) }}
{{- end }}
{{- end }}
{{- $mt := list $v.mthreadsResourceName $v.mthreadsResourceMem $v.mthreadsResourceCores }}
{{- range (dig "mthreads" "customresources" list $v.devices) }}{{ if not (has . $mt) }}
{{- $out = append $out (printf "devices.mthreads.customresources: %s is not one of the Moore Threads resources (mthreadsResourceName, mthreadsResourceMem, mthreadsResourceCores); ignored" (toString .)) }}
{{- end }}{{ end }}
{{- $d := $v.devicePlugin }}
{{- $s := $v.scheduler }}
{{- $sc := dict "privileged" true "allowPrivilegeEscalation" true "capabilities" (dict "drop" (list "ALL") "add" (list "SYS_ADMIN")) }}
{{- $msc := dict "allowPrivilegeEscalation" false "capabilities" (dict "drop" (list "ALL") "add" (list "SYS_ADMIN")) }}
{{- $ignored := list
  (list (dig "gpuOperatorToolkitReady" "enabled" false $d) false "devicePlugin.gpuOperatorToolkitReady.enabled (the plugins do not wait for the GPU operator's validations)")
  (list (dig "hostPID" true $d) true "devicePlugin.hostPID (the plugins do not use the host's PID namespace)")
  (list (toJson (dig "securityContext" $sc $d)) (toJson $sc) "devicePlugin.securityContext (each plugin container has its own)")
  (list (toJson (dig "monitor" "securityContext" $msc $d)) (toJson $msc) "devicePlugin.monitor.securityContext (the monitor container has its own)")
  (list (dig "monitor" "resyncInterval" "5m" $d) "5m" "devicePlugin.monitor.resyncInterval")
  (list (toJson (dig "monitor" "extraArgs" (list "-v=4") $d)) (toJson (list "-v=4")) "devicePlugin.monitor.extraArgs (hami monitor takes no extra flags here)")
  (list (dig "service" "type" "NodePort" $d) "NodePort" "devicePlugin.service.type (no plugin Service: the PodMonitor of monitoring.enabled scrapes each pod)")
  (list (dig "service" "httpPort" 31992 $d | toString) "31992" "devicePlugin.service.httpPort (no plugin Service)")
  (list (dig "service" "monitorTargetPort" 9395 $s | toString) "9395" "scheduler.service.monitorTargetPort (the metrics port follows scheduler.metricsBindAddress)")
  (list (dig "service" "httpTargetPort" 443 $s | toString) "443" "scheduler.service.httpTargetPort (the scheduler serves the webhook on 8443)")
  (list (dig "enabled" false ($v.mockDevicePlugin | default dict)) false "mockDevicePlugin.enabled (no mock device plugin)")
  (list (dig "enabled" false ($v.podSecurityPolicy | default dict)) false "podSecurityPolicy.enabled (PodSecurityPolicy is gone since Kubernetes 1.25)")
  (list ($v.legacyMetrics | default false) false "legacyMetrics (only the current metric names are served)")
}}
{{- range $ignored }}
{{- if ne (toString (index . 0)) (toString (index . 1)) }}
{{- $out = append $out (printf "%s: set, but has no effect in hami-java" (index . 2)) }}
{{- end }}
{{- end }}
{{- toJson $out -}}
{{- end }}
