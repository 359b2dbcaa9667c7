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
{{- .Values.global.imageTag | default .Chart.AppVersion -}}
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
imagePullSecrets of a pod (global.imagePullSecrets: names, or {name: ...} as Kubernetes writes them); "" when none.
*/}}
{{- define "hami-java.pullSecrets" -}}
{{- with .Values.global.imagePullSecrets -}}
imagePullSecrets:
{{- range . }}
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
  resourceCountName: {{ .Values.hcuResourceName }}
  resourceMemoryName: {{ .Values.hcuResourceMem }}
  resourceCoreName: {{ .Values.hcuResourceCores }}
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
{{- $upstreamOnly := list "amd" "ascend" "awsneuron" "biren" "enflame" "iluvatar" "kunlun" "metax" "vastai" -}}
{{- range $name, $vendor := .Values.devices }}
{{- if not (has $name $vendors) }}
{{- if hasKey $aliases $name }}
{{- fail (printf "devices.%s: unknown vendor; this chart names it devices.%s (vendors: %s)" $name (get $aliases $name) (join ", " $vendors)) }}
{{- else if and (has $name $upstreamOnly) (not (and (kindIs "map" $vendor) (hasKey $vendor "enabled") (not $vendor.enabled))) }}
{{- fail (printf "devices.%s: hami-java has no %s support; remove it or set devices.%s.enabled=false (vendors: %s)" $name $name $name (join ", " $vendors)) }}
{{- else if not (has $name $upstreamOnly) }}
{{- fail (printf "devices.%s: unknown vendor (vendors: %s)" $name (join ", " $vendors)) }}
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
  (list (dig "image" "repository" "" .Values.devicePlugin) "" "devicePlugin.image.repository (each vendor has its image: devices.<vendor>.image.repository)")
  (list (dig "libPath" "/usr/local/vgpu" .Values.devicePlugin) "/usr/local/vgpu" "devicePlugin.libPath (HAMi-core's host folder is /usr/local/vgpu)")
  (list (dig "monitor" "image" "repository" "" .Values.devicePlugin) "" "devicePlugin.monitor.image (the node monitor runs from the NVIDIA plugin image)")
  (list (dig "hostNetwork" false .Values.devicePlugin) false "devicePlugin.hostNetwork")
}}
{{- range $unsupported }}
{{- if ne (toString (index . 0)) (toString (index . 1)) }}
{{- fail (printf "%s is an upstream HAMi value this chart does not support; see the chart's README" (index . 2)) }}
{{- end }}
{{- end }}
{{- end }}
