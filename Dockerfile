# The ProtoHttp sample server: docker build -t protohttp-sample . && docker run -p 8080:8080 protohttp-sample
# Build stage: the .NET 10 SDK restores, builds (Grpc.Tools generates the code from protos/) and publishes.
FROM mcr.microsoft.com/dotnet/sdk:10.0 AS build
WORKDIR /src

# Restore first, from the project files alone, so the package layer is cached across source edits.
COPY Directory.Build.props Directory.Packages.props .editorconfig ./
COPY src/Directory.Build.props src/
COPY src/ProtoHttp/ProtoHttp.csproj src/ProtoHttp/
COPY src/ProtoHttp.AspNetCore/ProtoHttp.AspNetCore.csproj src/ProtoHttp.AspNetCore/
COPY src/ProtoHttp.AspNetCore.OpenApi/ProtoHttp.AspNetCore.OpenApi.csproj src/ProtoHttp.AspNetCore.OpenApi/
COPY src/ProtoHttp.AspNetCore.Redis/ProtoHttp.AspNetCore.Redis.csproj src/ProtoHttp.AspNetCore.Redis/
COPY src/ProtoHttp.AspNetCore.Nats/ProtoHttp.AspNetCore.Nats.csproj src/ProtoHttp.AspNetCore.Nats/
COPY samples/SearchService/SearchService.csproj samples/SearchService/
RUN dotnet restore samples/SearchService/SearchService.csproj

COPY protos/ protos/
COPY src/ src/
COPY samples/SearchService/ samples/SearchService/
COPY wwwroot/ wwwroot/
RUN dotnet publish samples/SearchService/SearchService.csproj --no-restore -c Release -o /app

# Run stage: the ASP.NET Core runtime only, as the image's non-root 'app' user.
FROM mcr.microsoft.com/dotnet/aspnet:10.0
WORKDIR /app
COPY --from=build /app ./

# ProtoHttp on 8080 (ASPNETCORE_HTTP_PORTS, which ASPNETCORE_URLS or --urls override); the same services as gRPC
# (h2c) on 8081. Health: /healthz (liveness) and /healthz/ready (readiness).
ENV ASPNETCORE_HTTP_PORTS=8080 \
    Grpc__Url=http://+:8081
EXPOSE 8080 8081
USER $APP_UID
ENTRYPOINT ["dotnet", "SearchService.dll"]
