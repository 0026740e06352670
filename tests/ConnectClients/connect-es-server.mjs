// A Connect server nobody on this project wrote (connect-es on Node) serving the sample's SearchService, and two of
// NorthwindStreams' methods, so the typed .NET client can be tried against a Connect server other than ProtoHttp.
// compressMinBytes 0: every envelope a client accepts gzip for is gzipped, as real servers do for large messages.
// Prints its URL, then serves.
import http from "node:http";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { ConnectError, Code } from "@connectrpc/connect";
import { isFieldSet } from "@bufbuild/protobuf";
import { SearchService, SearchRequestSchema } from "./gen/ProtoService_pb.js";
import { NorthwindStreams } from "./gen/NorthwindStreams_pb.js";

const routes = (router) => {
  router.service(SearchService, {
    search(request) {
      // proto2: an unset page_number reads as 0, so presence is asked for.
      if (isFieldSet(request, SearchRequestSchema.field.pageNumber) && request.pageNumber < 1) {
        throw new ConnectError(`page_number starts at 1, not ${request.pageNumber}.`, Code.InvalidArgument);
      }
      return { result: [{ url: "https://connect-es.example/1", title: `${request.query} from connect-es`, snippets: ["served by Node"] }] };
    },
  });
  router.service(NorthwindStreams, {
    async *replayOrders(request) {
      for (let i = 1; i <= request.limit; i++) {
        // A failure after the first messages, told in the (gzipped) end-stream message.
        if (request.limit > 1000 && i > 2) {
          throw new ConnectError("connect-es replays at most 1000 orders.", Code.ResourceExhausted);
        }
        yield { orderId: 90000 + i, customerId: "ES", lines: [{ productId: i, quantity: i, unitPrice: 1.5 }] };
      }
    },
    async uploadOrders(requests) {
      const summary = { orders: 0, lines: 0, total: 0 };
      for await (const order of requests) {
        summary.orders++;
        summary.lines += order.lines.length;
        summary.total += order.lines.reduce((sum, l) => sum + l.unitPrice * l.quantity * (1 - l.discount), 0);
      }
      return summary;
    },
  });
};

const server = http.createServer(connectNodeAdapter({ routes, compressMinBytes: 0 }));
server.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${server.address().port}`));
