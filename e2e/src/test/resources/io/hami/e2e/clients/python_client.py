# An independent client of what hami-java writes: Debian's python3-kubernetes.
#
#   python_client.py KUBECONFIG read NAMESPACE POD NODE
#       prints {"pod": {key: base64}, "node": {key: base64}, "nodeName": ...}: every annotation as its UTF-8 bytes
#   python_client.py KUBECONFIG merge-patch NODE KEY BASE64_VALUE
#       sets one node annotation with a JSON merge patch (application/merge-patch+json); prints the node's annotations
import base64
import json
import sys

from kubernetes import client, config


def encoded(annotations):
    return {k: base64.b64encode(v.encode("utf-8")).decode("ascii") for k, v in (annotations or {}).items()}


config.load_kube_config(config_file=sys.argv[1])
v1 = client.CoreV1Api()
mode = sys.argv[2]
if mode == "read":
    pod = v1.read_namespaced_pod(sys.argv[4], sys.argv[3])
    node = v1.read_node(sys.argv[5])
    print(json.dumps({"pod": encoded(pod.metadata.annotations), "node": encoded(node.metadata.annotations),
                      "nodeName": pod.spec.node_name}))
elif mode == "merge-patch":
    name, key, value = sys.argv[3], sys.argv[4], base64.b64decode(sys.argv[5]).decode("utf-8")
    # CoreV1Api.patch_node sends a dict as a strategic merge patch; a JSON merge patch is what hami-java sends.
    node = v1.api_client.call_api(
        "/api/v1/nodes/{name}", "PATCH", path_params={"name": name}, query_params=[],
        header_params={"Content-Type": "application/merge-patch+json", "Accept": "application/json"},
        body={"metadata": {"annotations": {key: value}}}, response_type="V1Node", auth_settings=["BearerToken"],
        _return_http_data_only=True)
    print(json.dumps({"node": encoded(node.metadata.annotations)}))
else:
    sys.exit("unknown mode " + mode)
