# Requests shaped as client-go sends them, made with Debian's python3-kubernetes (an independent client: its
# configuration, TLS and urllib3 transport), against the API server of the kubeconfig in argv[1], in the namespace
# argv[2] (which exists). Prints one JSON document: what each request saw on the wire (status, headers, the events of
# a watch with their arrival times). WatchWireContract compares it between the embedded server and kube-apiserver.
import json
import sys
import time

import urllib3
from kubernetes import client, config, watch

config.load_kube_config(config_file=sys.argv[1])
ns = sys.argv[2]
api = client.ApiClient()
v1 = client.CoreV1Api(api)
base = api.configuration.host + "/api/v1/namespaces/" + ns + "/pods"
auth = api.configuration.api_key.get("authorization")
out = {}


def pod(name):
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name},
            "spec": {"containers": [{"name": "c", "image": "busybox"}]}}


def request(method, url, headers=None, body=None, stream=False):
    headers = dict(headers or {})
    if auth:
        headers["Authorization"] = auth
    return api.rest_client.pool_manager.request(
        method, url, headers=headers, body=body, preload_content=not stream,
        timeout=urllib3.Timeout(connect=10, read=60))


def shape(response):
    """Status, the headers that matter, and for an error its Status's code and reason."""
    seen = {"status": response.status,
            "contentType": response.headers.get("Content-Type"),
            "transferEncoding": response.headers.get("Transfer-Encoding")}
    if response.status >= 400:
        body = json.loads(response.data)
        seen.update({"kind": body.get("kind"), "code": body.get("code"), "reason": body.get("reason"),
                     "message": body.get("message")})
    return seen


def event_shape(event, started):
    obj = event.get("object", {})
    metadata = obj.get("metadata", {})
    return {"type": event.get("type"), "kind": obj.get("kind"), "apiVersion": obj.get("apiVersion"),
            "name": metadata.get("name"), "hasResourceVersion": bool(metadata.get("resourceVersion")),
            "initialEventsEnd": (metadata.get("annotations") or {}).get("k8s.io/initial-events-end"),
            "at": round(time.monotonic() - started, 2)}


def watch_raw(query, on_event=lambda event: None, on_open=lambda: None):
    """A chunked watch read line by line until the server ends it; on_event may write to the server meanwhile."""
    started = time.monotonic()
    response = request("GET", base + "?watch=true&" + query, {"Accept": "application/json"}, stream=True)
    seen = shape(response)
    if response.status != 200:
        return seen
    on_open()
    events, pending = [], b""
    for chunk in response.stream(4096, decode_content=False):
        pending += chunk
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            if line.strip():
                event = json.loads(line)
                events.append(event_shape(event, started))
                on_event(event)
    seen["events"] = events
    seen["endedAt"] = round(time.monotonic() - started, 2)
    return seen


v1.create_namespaced_pod(ns, pod("w-1"))
listed = v1.list_namespaced_pod(ns).metadata.resource_version

# An informer's watch after its list: from the list's resourceVersion, with bookmarks and a timeout (reflector).
out["watchFromList"] = watch_raw(
    "allowWatchBookmarks=true&timeoutSeconds=5&resourceVersion=" + listed,
    on_open=lambda: v1.create_namespaced_pod(ns, pod("w-2")))


# client-go's WatchList (streaming list): the state as ADDED, the end bookmark, then changes.
def after_end(event):
    annotations = event["object"].get("metadata", {}).get("annotations") or {}
    if event["type"] == "BOOKMARK" and annotations.get("k8s.io/initial-events-end") == "true":
        v1.create_namespaced_pod(ns, pod("w-3"))


out["watchList"] = watch_raw(
    "sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=5",
    on_event=after_end)

# The Python client's own watch: a chunked HTTP watch from the first list's resourceVersion, ended by the timeout.
started = time.monotonic()
out["pythonWatch"] = {
    "events": [{"type": e["type"], "name": e["object"].metadata.name}
               for e in watch.Watch().stream(v1.list_namespaced_pod, ns, resource_version=listed,
                                             timeout_seconds=2)],
    "endedAt": round(time.monotonic() - started, 2)}

out["matchWithoutInitialEvents"] = shape(request("GET", base + "?watch=true&resourceVersionMatch=NotOlderThan"))
out["acceptProtobufAndJson"] = shape(
    request("GET", base, {"Accept": "application/vnd.kubernetes.protobuf,application/json"}))
out["acceptProtobuf"] = shape(request("GET", base, {"Accept": "application/vnd.kubernetes.protobuf"}))
out["acceptXml"] = shape(request("GET", base, {"Accept": "application/xml"}))
out["bodyXml"] = shape(request("POST", base, {"Content-Type": "application/xml"}, body=b"<pod/>"))
out["bodyProtobuf"] = shape(request("POST", base, {"Content-Type": "application/vnd.kubernetes.protobuf"},
                                    body=b"k8s\x00\x0a\x00"))

print(json.dumps(out))
