// A Connect server nobody on this project wrote (connect-es on Node) serving the sample's SearchService, so the
// typed .NET client can be tried against a Connect server other than ProtoHttp. Prints its URL, then serves.
import http from "node:http";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { ConnectError, Code } from "@connectrpc/connect";
import { isFieldSet } from "@bufbuild/protobuf";
import { SearchService, SearchRequestSchema } from "./gen/ProtoService_pb.js";

const routes = (router) =>
  router.service(SearchService, {
    search(request) {
      // proto2: an unset page_number reads as 0, so presence is asked for.
      if (isFieldSet(request, SearchRequestSchema.field.pageNumber) && request.pageNumber < 1) {
        throw new ConnectError(`page_number starts at 1, not ${request.pageNumber}.`, Code.InvalidArgument);
      }
      return { result: [{ url: "https://connect-es.example/1", title: `${request.query} from connect-es`, snippets: ["served by Node"] }] };
    },
  });

const server = http.createServer(connectNodeAdapter({ routes }));
server.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${server.address().port}`));
