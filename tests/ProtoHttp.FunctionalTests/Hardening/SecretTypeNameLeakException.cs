namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>An exception whose very type name must not reach a client.</summary>
public sealed class SecretTypeNameLeakException(string message, Exception inner) : Exception(message, inner);
