#!/usr/bin/env python3
"""An independent kubelet for the HAMi device plugin, written against Debian's python3-grpcio.

It generates its stubs from the plugin's own api.proto with grpc_tools at run time, serves the kubelet's
Registration service on <dir>/kubelet.sock, and, as the kubelet's device manager does, asks a registering
plugin for its options inside Register. It then reads the first ListAndWatch list, asks for a preferred
allocation of one device, calls Allocate with it and prints one JSON line with what it saw.
Exit codes: 0 done, 1 the plugin answered wrongly or not in time, 2 stubs could not be generated.
"""
import argparse
import importlib
import json
import os
import sys
import tempfile
import threading
from concurrent import futures


def load_stubs(proto):
    from grpc_tools import protoc

    out = tempfile.mkdtemp(prefix="hami-kubelet-stubs-")
    rc = protoc.main(["grpc_tools.protoc", "-I" + os.path.dirname(proto), "--python_out=" + out,
                      "--grpc_python_out=" + out, proto])
    if rc != 0:
        print("grpc_tools.protoc failed with %d on %s" % (rc, proto), file=sys.stderr)
        sys.exit(2)
    sys.path.insert(0, out)
    return importlib.import_module("api_pb2"), importlib.import_module("api_pb2_grpc")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--proto", required=True, help="the plugin's api.proto")
    parser.add_argument("--dir", required=True, help="the device-plugin directory")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for the plugin")
    args = parser.parse_args()

    import grpc

    pb, rpc = load_stubs(args.proto)
    if pb.DESCRIPTOR.package != "v1beta1":
        print("api.proto package is %s, the kubelet speaks v1beta1" % pb.DESCRIPTOR.package, file=sys.stderr)
        return 1
    registered = threading.Event()
    plugin = {}

    class Registration(rpc.RegistrationServicer):
        def Register(self, request, context):
            if request.version != "v1beta1":
                context.abort(grpc.StatusCode.INVALID_ARGUMENT, "unsupported version " + request.version)
            channel = grpc.insecure_channel("unix:" + os.path.join(args.dir, request.endpoint))
            stub = rpc.DevicePluginStub(channel)
            plugin["options"] = stub.GetDevicePluginOptions(pb.Empty(), timeout=10)
            plugin["request"] = request
            plugin["stub"] = stub
            registered.set()
            return pb.Empty()

    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    rpc.add_RegistrationServicer_to_server(Registration(), server)
    server.add_insecure_port("unix:" + os.path.join(args.dir, "kubelet.sock"))
    server.start()
    try:
        if not registered.wait(args.timeout):
            print("no plugin registered within %.0f s" % args.timeout, file=sys.stderr)
            return 1
        stub = plugin["stub"]
        stream = stub.ListAndWatch(pb.Empty(), timeout=args.timeout)
        first = next(stream)
        stream.cancel()
        ids = [d.ID for d in first.devices if d.health == "Healthy"]
        preferred = stub.GetPreferredAllocation(pb.PreferredAllocationRequest(container_requests=[
            pb.ContainerPreferredAllocationRequest(available_deviceIDs=ids, allocation_size=1)]), timeout=10)
        chosen = list(preferred.container_responses[0].deviceIDs) or ids[:1]
        response = stub.Allocate(pb.AllocateRequest(container_requests=[
            pb.ContainerAllocateRequest(devices_ids=chosen)]), timeout=30)
        container = response.container_responses[0]
        request = plugin["request"]
        print(json.dumps({
            "register": {"version": request.version, "endpoint": request.endpoint,
                         "resource": request.resource_name},
            "preferredAvailable": plugin["options"].get_preferred_allocation_available,
            "devices": len(first.devices),
            "healthy": len(ids),
            "allocated": chosen,
            "envs": dict(container.envs),
            "mounts": [[m.container_path, m.host_path, m.read_only] for m in container.mounts],
        }, sort_keys=True))
        return 0
    except grpc.RpcError as e:
        print("plugin call failed: %s %s" % (e.code(), e.details()), file=sys.stderr)
        return 1
    finally:
        server.stop(0)


if __name__ == "__main__":
    sys.exit(main())
